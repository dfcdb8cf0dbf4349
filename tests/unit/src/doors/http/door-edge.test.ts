import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../../../../src/errors';
import type { Gateway, GatewayRequest } from '../../../../../src/gateway/pipeline';
import { doorEdge, reportRefusedBeforePipeline } from '../../../../../src/doors/http/door-edge';
import { gatewayRequest } from '../../../../../src/doors/http/gateway-request';

const expressRequest = (address: string) => ({ headers: {}, ip: address, socket: { remoteAddress: address } }) as unknown as Request;

function fakeGateway(admit: (request: GatewayRequest) => void | Promise<void>) {
  const finished: [GatewayRequest, number][] = [];
  const gateway = { admitAtEdge: admit, finishBeforePipeline: (request: GatewayRequest, status: number) => finished.push([request, status]) } as unknown as Gateway;
  return { gateway, finished };
}

const run = (handler: ReturnType<typeof doorEdge>, req: Request) =>
  new Promise<unknown>((resolve) => handler(req, {} as Response, ((error?: unknown) => resolve(error)) as NextFunction));

describe('the door edge', () => {
  it('passes an admitted request on, and the one GatewayRequest it made is the one the route gets', async () => {
    const seen: GatewayRequest[] = [];
    const req = expressRequest('192.0.2.1');
    expect(await run(doorEdge(fakeGateway((request) => void seen.push(request)).gateway), req)).toBeUndefined();
    expect(seen).toEqual([gatewayRequest(req)]);
    expect(seen[0]).toBe(gatewayRequest(req));
  });

  it('hands a refusal, thrown or rejected, to the door’s error handler', async () => {
    const refusal = new AppError('RATE_LIMITED', 'too many');
    expect(await run(doorEdge(fakeGateway(() => { throw refusal; }).gateway), expressRequest('192.0.2.2'))).toBe(refusal);
    expect(await run(doorEdge(fakeGateway(() => Promise.reject(refusal)).gateway), expressRequest('192.0.2.3'))).toBe(refusal);
  });

  it('reports how a request ended only when a door made its GatewayRequest', () => {
    const { gateway, finished } = fakeGateway(() => undefined);
    const report = reportRefusedBeforePipeline(gateway);
    report(expressRequest('192.0.2.4'), { statusCode: 405 } as Response); // never reached a door (a static page)
    const req = expressRequest('192.0.2.5');
    gatewayRequest(req);
    report(req, { statusCode: 405 } as Response);
    expect(finished).toEqual([[gatewayRequest(req), 405]]);
  });
});
