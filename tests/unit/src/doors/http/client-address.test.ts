import express from 'express';
import request from 'supertest';
import { clientAddressOf } from '../../../../../src/doors/http/client-address';

// The WebSocket door learns the client's address as the HTTP doors do: express's req.ip.
describe('clientAddressOf', () => {
  it.each([
    ['no proxy header', undefined],
    ['one forwarded address', '203.0.113.7'],
    ['a chain the client started (its own entries are not to be trusted)', '198.51.100.1, 203.0.113.7'],
    ['spaces and an empty last entry', '203.0.113.7 , '],
  ])('is what express’s req.ip says, behind one trusted proxy and without one: %s', async (_what, forwarded) => {
    for (const trustProxy of [true, false]) {
      const app = express();
      app.set('trust proxy', trustProxy ? 1 : false);
      app.get('/', (req, res) => {
        res.json({ express: req.ip ?? null, ours: clientAddressOf(req, trustProxy) ?? null });
      });
      const call = request(app).get('/');
      const res = await (forwarded === undefined ? call : call.set('X-Forwarded-For', forwarded));
      expect(res.body.ours).toBe(res.body.express);
    }
  });
});
