import { ALERT_PATHS } from './alerts-paths';
import { COMPONENTS } from './components';
import { PREDICTION_PATHS } from './predictions-paths';
import { WATCHLIST_PATHS } from './watchlists-paths';
import { WEBHOOK_PATHS, WEBHOOK_SCHEMAS } from './webhooks-paths';
import { CHANNEL_PATHS } from './channels-paths';
import { ACCOUNT_PATHS, ACCOUNT_SCHEMAS } from './account-paths';
import { TRACK_RECORD_PATHS, TRACK_RECORD_SCHEMAS } from './track-record-paths';

/**
 * The OpenAPI 3.1 description of every /api/v1 path, served at /api/v1/openapi.json and committed
 * at schema/openapi.json (`npm run schema`), one file per specification section. A test checks
 * it against the routes the router has; the router refuses query parameters and body fields it
 * does not list (src/doors/rest/documented-inputs.ts).
 */

const CONVENTIONS = `
Conventions of every operation:

- **Success is 200** (specification 7): a create answers 200 with the created object, a delete 200 with \`{"id": …, "deleted": true}\`.
- **Errors** are \`{"detail": "..."}\` with the status of section 7. The detail names a bad parameter in this API's spelling (\`reference_date\`, never \`referenceDate\`).
- **Unknown inputs are refused**: a query parameter or JSON body field an operation does not list is a 400 naming it, so a misspelt optional field is never silently ignored. It is refused after authentication and counts as an API call.
- **405**: a known path called with another method answers 405 with an \`Allow\` header listing the methods it has.
- **401** carries \`WWW-Authenticate: Bearer realm="bill-progress"\`: send \`Authorization: Bearer <API key>\` (or \`X-API-Key\`).
- **CORS**: browser pages of the origins in the service's \`CORS_ORIGINS\` setting may call the API (preflight answered with 200); other origins get no CORS headers. The rate-limit headers are exposed to them.
- **Aliases** (specification 9): \`POST /predict/batch\` is \`POST /predictions/batch\`; every \`/predictions/alerts/…\` operation also answers under \`/alerts/…\`.
`;

export const OPENAPI_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Bill Progress API',
    version: '1.0.0',
    description: `Forecasts how UK Parliament bills will progress. Every prediction is a nowcast: computed only from facts dated on or before its reference date. Contains Parliamentary information licensed under the Open Parliament Licence v3.0.\n${CONVENTIONS}`,
  },
  servers: [{ url: '/api/v1' }],
  security: [{ bearer: [] }, { apiKey: [] }],
  paths: {
    ...PREDICTION_PATHS,
    ...WATCHLIST_PATHS,
    ...ALERT_PATHS,
    ...WEBHOOK_PATHS,
    ...CHANNEL_PATHS,
    ...ACCOUNT_PATHS,
    ...TRACK_RECORD_PATHS,
    '/openapi.json': {
      get: { operationId: 'openapi', summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': {} } } } },
    },
  },
  components: { ...COMPONENTS, schemas: { ...COMPONENTS.schemas, ...WEBHOOK_SCHEMAS, ...ACCOUNT_SCHEMAS, ...TRACK_RECORD_SCHEMAS } },
};

export type OpenApiDocument = typeof OPENAPI_DOCUMENT;
