import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isCalendarDate } from './common/dates';

/** RETENTION_DAYS when unset: how long finished webhook deliveries, the event log and older snapshots are kept (src/jobs/retention-rules.ts). */
const DEFAULT_RETENTION_DAYS = 90;
/**
 * The least RETENTION_DAYS may be: the dashboard re-sends the given-up deliveries of the last 30
 * days (`recover` with `since` 30 days back), so those must still be there, with a day to spare.
 */
const MIN_RETENTION_DAYS = 31;

/** CHAT_WEBHOOK_HOSTS when unset: Slack's incoming webhooks, Teams' (Office 365 connectors) and Power Automate's Workflows (Logic Apps, Power Platform). */
export const DEFAULT_CHAT_WEBHOOK_HOSTS = ['hooks.slack.com', '*.webhook.office.com', '*.logic.azure.com', '*.powerplatform.com'];

/** A host name, or `*.` and one: lower-case letters, digits and hyphens in dotted labels (no IP address, no port). */
const CHAT_HOST = /^(\*\.)?(?=.*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD').refine(isCalendarDate, 'is not a calendar date');

/** An empty variable counts as unset, so `PORT=` does not quietly become port 0. */
const unsetIfEmpty = (value: unknown) => (value === '' ? undefined : value);

const envSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  /** a snapshot folder, or `none` for the live Bills API even where the default snapshot exists */
  BILLS_SNAPSHOT: z.string().optional(),
  SYNC_INTERVAL: z.coerce.number().int().min(0).max(86_400).optional(),
  RETRAIN_INTERVAL_DAYS: z.coerce.number().int().min(0).max(365).optional(),
  BILLS_API_URL: z.string().url().default('https://bills-api.parliament.uk/api/v1'),
  MEMBERS_API_URL: z.string().url().default('https://members-api.parliament.uk/api'),
  SERVICE_DATE: isoDate.optional(),
  VINTAGE_TRAINING: z.enum(['on', 'off'], { message: 'must be on or off' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Two at least: migrations hold one connection for their advisory lock and run on another.
  DB_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(10),
  BURST_LIMIT: z.coerce.number().int().min(0).max(100_000).default(300),
  ANON_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(120),
  ACCEPT_LISTENERS: z.coerce.number().int().min(1).max(64).default(32),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((list) => list.split(',').map((origin) => origin.trim()).filter(Boolean))
    .pipe(z.array(z.string().refine(isOrigin, 'each entry must be an origin such as https://app.example.com (scheme, host, optional port; no path)'))),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false'], { message: 'must be true or false' }).default('false'),
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine((text) => /^[A-Za-z0-9+/]{43}=$/.test(text) && Buffer.from(text, 'base64').length === 32, 'must be 32 bytes in base64 (e.g. `openssl rand -base64 32`)')
    .optional(),
  CHAT_WEBHOOK_HOSTS: z
    .string()
    .default(DEFAULT_CHAT_WEBHOOK_HOSTS.join(','))
    .transform((list) => list.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean))
    .pipe(
      z
        .array(z.string().refine((host) => CHAT_HOST.test(host), 'each entry must be a host name such as hooks.slack.com, or *. and one such as *.webhook.office.com'))
        .min(1, 'must list at least one host (comma-separated), or be left unset for the default list'),
    ),
  RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(MIN_RETENTION_DAYS, `must be at least ${MIN_RETENTION_DAYS} (the dashboard re-sends the failed deliveries of the last 30 days)`)
    .max(36_500)
    .default(DEFAULT_RETENTION_DAYS),
  PUBLIC_URL: z
    .string()
    .refine(isPublicUrl, 'must be an http or https URL without a query or fragment, e.g. https://bills.example.com')
    .optional(),
  /** smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465; unset: mail goes to the local mailbox */
  SMTP_URL: z
    .string()
    .refine(isSmtpUrl, 'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587')
    .optional(),
  /** the From of every email: an address, or `Name <address>` */
  MAIL_FROM: z
    .string()
    .refine((text) => /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(text.trim()), 'must be an email address, or a name and <address>, e.g. Bill Progress <alerts@bills.example.com>')
    .optional(),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true' || value === '1'),
});

/** Where clients reach the service: scheme, host, optional port and path prefix; links the service gives out start with it. */
function isPublicUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** An SMTP server's address: smtp or smtps, a host, no path beyond `/`. */
function isSmtpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && Boolean(url.hostname) && (url.pathname === '' || url.pathname === '/');
  } catch {
    return false;
  }
}

/** A browser origin exactly as a browser sends it in the Origin header: scheme://host[:port], nothing after. */
function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text;
  } catch {
    return false;
  }
}

export interface Config {
  nodeEnv: 'production' | 'development' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** quota counters shared through Redis (several instances); the database keeps them otherwise */
  redisUrl: string | undefined;
  /** the snapshot folder to ingest, or undefined to use the live Bills API */
  snapshotDir: string | undefined;
  /** seconds between scheduled syncs of the bill source (0: none); by default 900 on the live Bills API, none on a snapshot */
  syncIntervalSeconds: number;
  /** days between scheduled retrains (0: none); by default 7 on the live Bills API, none on a snapshot */
  retrainIntervalDays: number;
  billsApiUrl: string;
  /** the Members API, for the live sync's sponsors' parties on the introduction day */
  membersApiUrl: string;
  serviceDate: string | undefined;
  /**
   * the server trains the missing session vintages (point-in-time models for past dates) in the
   * background after the serving model; on by default, off under NODE_ENV=test (the test suites
   * train them only where a test asks)
   */
  vintageTraining: boolean;
  logLevel: string;
  dbPoolSize: number;
  /** calls of one GraphQL root field per user per 10 seconds (0: off) */
  burstLimit: number;
  /** requests without a valid key, or failing, per client address per minute (0: off) */
  anonRateLimit: number;
  /** descriptors of the listening socket accepting connections side by side (see src/doors/http/parallel-accept.ts) */
  acceptListeners: number;
  /** browser origins allowed to call /api/v1 from their pages (CORS); none by default */
  corsOrigins: string[];
  /** bearer token for /metrics; unset: /metrics answers direct loopback requests only */
  metricsToken: string | undefined;
  /** webhooks may target loopback and private addresses (tests, private deployments); never link-local or metadata */
  webhookAllowPrivate: boolean;
  /** the hosts Slack and Teams webhook URLs may name (`*.` matches any name ending in the rest); lower-case */
  chatWebhookHosts: string[];
  /** the key sealing webhook secrets at rest; unset: a key file in DATA_DIR */
  webhookSecretKey: Buffer | undefined;
  /**
   * the server sits behind one reverse proxy that terminates HTTPS: the client's address, host and
   * scheme are read from its X-Forwarded-For/-Host/-Proto, and the session cookie is Secure
   */
  trustProxy: boolean;
  /** days finished webhook deliveries, the event log and older prediction snapshots are kept (src/jobs/retention-rules.ts) */
  retentionDays: number;
  /** SMTP_URL: where mail is sent; undefined: the local mailbox (never log it: it may hold credentials) */
  smtpUrl: string | undefined;
  /** MAIL_FROM; default `Bill Progress <no-reply@` PUBLIC_URL's host `>` */
  mailFrom: string;
  /** PUBLIC_URL, without a trailing slash: the start of the links the service gives out (watchlists' feed addresses, bill pages); default http://localhost:PORT */
  publicUrl: string;
}

/** BILLS_SNAPSHOT's value that selects the live Bills API. */
export const LIVE_SOURCE = 'none';
/** Seconds between syncs of the live Bills API unless SYNC_INTERVAL says otherwise: 15 minutes. */
export const DEFAULT_LIVE_SYNC_INTERVAL = 900;
/** Days between retrains on the live Bills API unless RETRAIN_INTERVAL_DAYS says otherwise. */
export const DEFAULT_LIVE_RETRAIN_DAYS = 7;

/** The repository's sibling data folder, used when BILLS_SNAPSHOT is unset. */
export const DEFAULT_SNAPSHOT_DIR = path.resolve(__dirname, '..', '..', '..', 'shared', 'data', 'uk-bills');

function defaultSnapshotDir(): string | undefined {
  // __dirname is dist/src when built and src under ts-jest: try both depths.
  const candidates = [DEFAULT_SNAPSHOT_DIR, path.resolve(__dirname, '..', '..', 'shared', 'data', 'uk-bills')];
  return candidates.find((dir) => existsSync(path.join(dir, 'bills.jsonl')));
}

/** Reads and validates the environment once; a bad variable stops start-up with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, unsetIfEmpty(v)])));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const snapshotDir = e.BILLS_SNAPSHOT === LIVE_SOURCE ? undefined : e.BILLS_SNAPSHOT ? path.resolve(e.BILLS_SNAPSHOT) : defaultSnapshotDir();
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    snapshotDir,
    syncIntervalSeconds: e.SYNC_INTERVAL ?? (snapshotDir ? 0 : DEFAULT_LIVE_SYNC_INTERVAL),
    retrainIntervalDays: e.RETRAIN_INTERVAL_DAYS ?? (snapshotDir ? 0 : DEFAULT_LIVE_RETRAIN_DAYS),
    billsApiUrl: e.BILLS_API_URL,
    membersApiUrl: e.MEMBERS_API_URL,
    serviceDate: e.SERVICE_DATE,
    vintageTraining: (e.VINTAGE_TRAINING ?? (e.NODE_ENV === 'test' ? 'off' : 'on')) === 'on',
    logLevel: e.LOG_LEVEL,
    dbPoolSize: e.DB_POOL_SIZE,
    burstLimit: e.BURST_LIMIT,
    anonRateLimit: e.ANON_RATE_LIMIT,
    acceptListeners: e.ACCEPT_LISTENERS,
    corsOrigins: e.CORS_ORIGINS,
    metricsToken: e.METRICS_TOKEN,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
    chatWebhookHosts: e.CHAT_WEBHOOK_HOSTS,
    webhookSecretKey: e.WEBHOOK_SECRET_KEY ? Buffer.from(e.WEBHOOK_SECRET_KEY, 'base64') : undefined,
    trustProxy: e.TRUST_PROXY,
    retentionDays: e.RETENTION_DAYS,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM?.trim() ?? `Bill Progress <no-reply@${new URL(e.PUBLIC_URL ?? 'http://localhost').hostname}>`,
  };
}
