import express from 'express';
import request from 'supertest';
import { corsPolicy } from '../../../../../src/doors/rest/cors';

const appWith = (origins: string[]) => {
  const app = express();
  app.use(corsPolicy(origins));
  app.get('/thing', (_req, res) => void res.json({ ok: true }));
  app.options('/thing', (_req, res) => void res.set('Allow', 'GET').status(200).end());
  return app;
};

describe('corsPolicy', () => {
  it('by default gives no origin CORS headers, so only the service’s own pages can read answers', async () => {
    const app = appWith([]);
    const res = await request(app).get('/thing').set('origin', 'https://app.example.com');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(app).options('/thing').set('origin', 'https://app.example.com').set('access-control-request-method', 'GET');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('reflects each configured origin and no other', async () => {
    const app = appWith(['https://a.example.com', 'http://localhost:5173']);
    for (const origin of ['https://a.example.com', 'http://localhost:5173']) expect((await request(app).get('/thing').set('origin', origin)).headers['access-control-allow-origin']).toBe(origin);
    expect((await request(app).get('/thing').set('origin', 'https://a.example.com.evil.net')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('leaves an OPTIONS request without Origin to the routes', async () => {
    const res = await request(appWith(['https://a.example.com'])).options('/thing');
    expect(res.headers.allow).toBe('GET');
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
  });
});
