import Ajv2020 from 'ajv/dist/2020';
import { OPENAPI_DOCUMENT } from '../../../../../../src/doors/rest/openapi/openapi-document';
import { ALERT_PATH_PREFIXES } from '../../../../../../src/doors/rest/alert-prefixes';

type Json = Record<string, any>;
const operations = Object.entries(OPENAPI_DOCUMENT.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })));

/** Every JSON example of the document with the schema it illustrates: request bodies and responses. */
function examples(): { where: string; schema: Json; value: unknown }[] {
  const found: { where: string; schema: Json; value: unknown }[] = [];
  for (const { path, method, op } of operations) {
    const media = [['request', op.requestBody?.content?.['application/json']], ...Object.entries(op.responses ?? {}).map(([status, r]) => [status, (r as Json).content?.['application/json']])] as [string, Json | undefined][];
    for (const [what, content] of media) {
      if (!content?.schema) continue;
      if ('example' in content) found.push({ where: `${method} ${path} ${what}`, schema: content.schema, value: content.example });
      for (const [name, ex] of Object.entries((content.examples ?? {}) as Json)) found.push({ where: `${method} ${path} ${what} ${name}`, schema: content.schema, value: ex.value });
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  it('has only 200 as a success status (specification 7)', () => {
    const successes = operations.flatMap(({ path, method, op }) => Object.keys(op.responses).filter((s) => s.startsWith('2') && s !== '200').map((s) => `${method} ${path} ${s}`));
    expect(successes).toEqual([]);
  });

  it('documents, on every operation answered through the gateway, the 413 and a 429 with the headers of the limit that refused it', () => {
    const gaps = operations
      .filter(({ op }) => op.responses['401'])
      .flatMap(({ path, method, op }) => {
        const headers = Object.keys(op.responses['429']?.headers ?? {}).sort();
        const complete = op.responses['413'] && headers.join() === ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].join();
        return complete ? [] : [`${method} ${path}`];
      });
    expect(gaps).toEqual([]);
    expect(operations.filter(({ op }) => op.responses['401']).length).toBeGreaterThan(20);
  });

  it('gives every operation a unique operationId', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists every alert operation under both prefixes of specification 9', () => {
    const [long, short] = ALERT_PATH_PREFIXES;
    const under = (prefix: string) => operations.filter((o) => o.path.startsWith(`${prefix}/`)).map((o) => `${o.method} ${o.path.slice(prefix.length)}`).sort();
    expect(under(short)).toEqual(under(long));
    expect(under(long)).toEqual(['delete /thresholds/{id}', 'get /history', 'get /thresholds', 'post /check', 'post /thresholds']);
  });

  it('has examples for every operation of 4.1–4.5, each valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', components: OPENAPI_DOCUMENT.components });
    const all = examples();
    // a CSV, iCalendar or Atom answer's example is text, checked by its own tests' parsers, not by a JSON schema
    const textExamples = operations.filter(({ op }) => Object.entries(op.responses['200']?.content ?? {}).some(([media, c]) => media !== 'application/json' && 'example' in (c as Json))).map(({ method, path }) => `${method} ${path}`);
    const withSuccessExample = new Set([...all.filter((e) => / 200$/.test(e.where)).map((e) => e.where.replace(/ 200$/, '')), ...textExamples]);
    const undocumented = operations.filter(({ path }) => path !== '/openapi.json').map(({ method, path }) => `${method} ${path}`).filter((w) => !withSuccessExample.has(w));
    expect(undocumented).toEqual([]);
    const invalid = all.flatMap(({ where, schema, value }) => {
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')));
      return validate(value) ? [] : [`${where}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).toEqual([]);
  });

  it('forbids unknown fields in every request body schema, as the router does', () => {
    const schemas = OPENAPI_DOCUMENT.components.schemas as Json;
    const refs = operations.flatMap(({ op }) => (op.requestBody ? [op.requestBody.content['application/json'].schema.$ref as string] : []));
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect({ ref, additionalProperties: schemas[ref.split('/').pop()!].additionalProperties }).toEqual({ ref, additionalProperties: false });
  });
});
