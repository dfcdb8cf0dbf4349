import 'reflect-metadata';
import { ServiceClock } from '../src/common/clock';
import { openDatabase } from '../src/db/database';
import type { ServiceEvent } from '../src/events/event';
import { newEventId } from '../src/events/payloads';
import { Readiness } from '../src/health/readiness';
import { createLogger } from '../src/logger';
import { createServices } from '../src/services/services';
import { monotonicMs, startReceiver } from './bench-webhook-receiver';

/**
 * `npm run bench` (email): BENCH_MAIL_RECIPIENTS (1,000) verified Pilot accounts, each with a
 * watchlist of one bill set to instant email, on the embedded database, mailing a loopback SMTP
 * server (smtp-server, in a child process as a mail server is elsewhere; BENCH_RECEIVER=in-process
 * runs it in this one). A refresh records one stage event on the bill, as the refresh job does
 * (the event log and its sinks in one transaction: the webhook outbox, one alert email per
 * account, each composed there), then the worker sends the outbox over nodemailer's pooled SMTP
 * transport. The figure runs from the start of that transaction to the SMTP server's 250 for the
 * last message. Figures, not assertions.
 */
const RECIPIENTS = Number(process.env.BENCH_MAIL_RECIPIENTS ?? 1_000);
const TARGET_MS = 30_000;
const BILL = 2900;
const DAY = '2021-11-26';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  const receiver = await startReceiver(process.env.BENCH_RECEIVER === 'in-process', 'smtp');
  const db = await openDatabase({ dataDir: null });
  const services = createServices({
    dataSource: db.dataSource,
    embeddedDatabase: true,
    clock: new ServiceClock(DAY),
    readiness: new Readiness(),
    logger: createLogger('silent'),
    mail: { smtpUrl: `smtp://127.0.0.1:${receiver.port}`, from: 'Bill Progress <alerts@bills.example.com>' },
  });
  const { dataSource } = db;
  await dataSource.query(
    `INSERT INTO bill (id, title, bill_type_id, bill_type, category, kind, originating_house, introduced_session_id, session_ids, sponsor_organisations, is_act, outcome, stage_history, missing_stage_count, content_hash, ingested_at)
     VALUES ($1, 'Marriage and Civil Partnership (Minimum Age) Bill', 2, 'Private Members'' Bill (Ballot Bill)', 'private_members', 'pmb_ballot', 'Commons', 36, '{36}', '{}', false, 'pending', '', 0, 'bench', now())`,
    [BILL],
  );
  const accounts = (await dataSource.query(
    `INSERT INTO account (email, tier, email_status) SELECT 'reader' || n || '@example.com', 'pilot', 'VERIFIED' FROM generate_series(1, $1) n RETURNING id`,
    [RECIPIENTS],
  )) as { id: number }[];
  for (const { id } of accounts) {
    const watchlist = await services.watchlists.create(id, { name: 'Marriage law', billIds: [BILL] });
    await services.notifications.update(id, 'pilot', watchlist.id, { email: 'instant' });
  }
  await services.mail.worker.start();

  const arrived = receiver.arrivals(RECIPIENTS);
  const event: ServiceEvent = { id: newEventId(), type: 'bill.stage_changed', timestamp: new Date().toISOString(), data: { bill_id: BILL, stage_record_id: 1, stage: 'second_reading', house: 'Commons', date: DAY } };
  const started = monotonicMs();
  const cpuAtStart = process.cpuUsage();
  await dataSource.transaction((manager) => services.events.log.record(manager, [event], DAY));
  const committed = monotonicMs();
  services.events.log.publish([event]);
  const arrivals = (await arrived).sort((x, y) => x - y);
  const cpu = process.cpuUsage(cpuAtStart);
  const lastMs = arrivals.at(-1)! - started;

  await services.mail.worker.stop();
  await receiver.close();
  await db.close();

  const { sent } = services.mail.worker.counts;
  process.stdout.write(`email benchmark (${RECIPIENTS} verified accounts, instant email on one bill, a loopback SMTP server ${receiver.where === 'in-process' ? "in the worker's process" : 'in a child process'}, embedded database)\n`);
  process.stdout.write(
    `  refresh → ${RECIPIENTS} emails accepted   ${(lastMs / 1000).toFixed(1)} s (event and ${RECIPIENTS} outbox rows written in ${((committed - started) / 1000).toFixed(1)} s; first 250 at ${((arrivals[0] - started) / 1000).toFixed(1)} s, median ${((percentile(arrivals, 50) - started) / 1000).toFixed(1)} s; ${(RECIPIENTS / ((arrivals.at(-1)! - committed) / 1000)).toFixed(0)} emails/s after the commit; ${sent} sent; this process's CPU ${((cpu.user + cpu.system) / 1000 / 1000).toFixed(1)} s)   target under ${TARGET_MS / 1000} s: ${lastMs < TARGET_MS ? 'met' : 'missed'}\n`,
  );
}

main().catch((error: Error) => {
  process.stderr.write(`bench-mail: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
