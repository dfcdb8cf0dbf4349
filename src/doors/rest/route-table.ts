import type { RequestHandler } from 'express';

/** `/predict/:bill_id` as the OpenAPI document spells it: `/predict/{bill_id}`. */
export const documentTemplate = (routePath: string) => routePath.replace(/:(\w+)/g, '{$1}');

interface TableRoute {
  method: string;
  /** as it was added, in express's spelling (`/predict/:bill_id`): the metrics' route label reads it */
  path: string;
  handler: RequestHandler;
}

/**
 * The /api/v1 routes by method and path as the OpenAPI document spells them. documentedOperations,
 * which matches every request against the document anyway, runs the route it finds: one match per
 * request, where express's router would test the request against every route added before its own,
 * each test a layer's dispatch of its own. A GET route answers HEAD too, as in express.
 */
export class RouteTable {
  private readonly byOperation = new Map<string, TableRoute>();

  get(path: string, handler: RequestHandler): void {
    this.add('GET', path, handler);
  }

  post(path: string, handler: RequestHandler): void {
    this.add('POST', path, handler);
  }

  patch(path: string, handler: RequestHandler): void {
    this.add('PATCH', path, handler);
  }

  delete(path: string, handler: RequestHandler): void {
    this.add('DELETE', path, handler);
  }

  /** The route of a documented operation: its method (GET for HEAD) and its path as the document spells it. */
  find(method: string, template: string): TableRoute | undefined {
    return this.byOperation.get(`${method} ${template}`);
  }

  /** "METHOD {template}" of every route, as the document spells its operations. */
  operations(): string[] {
    return [...this.byOperation.keys()];
  }

  /** "METHOD /path" of every route, in express's spelling, for the check against the OpenAPI document. */
  routes(): string[] {
    return [...this.byOperation.values()].map((route) => `${route.method} ${route.path}`);
  }

  private add(method: string, path: string, handler: RequestHandler): void {
    const key = `${method} ${documentTemplate(path)}`;
    if (this.byOperation.has(key)) throw new Error(`Two /api/v1 routes for ${key}`);
    this.byOperation.set(key, { method, path, handler });
  }
}
