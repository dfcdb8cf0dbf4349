import express from 'express';

/** The machine's ceiling for the HTTP benchmark: express answering a fixed JSON body, nothing else. */
const app = express();
const body = JSON.parse(process.env.BENCH_FIXED_BODY ?? '{"ok":true}') as object;
app.get('/ceiling', (_req, res) => {
  res.json(body);
});
const server = app.listen(Number(process.env.CEILING_PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
