import express from 'express';

/** The machine's ceiling for the HTTP benchmark: express answering a fixed JSON body, nothing else. */
const app = express();
const body = { bill_id: '2900', mode: 'nowcast', reference_date: '2021-12-31', ok: true };
app.get('/ceiling', (_req, res) => {
  res.json(body);
});
const server = app.listen(Number(process.env.CEILING_PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
