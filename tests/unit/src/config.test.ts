import { loadConfig } from '../../../src/config';

describe('configuration', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).toMatchObject({ port: 4000, host: '0.0.0.0', databaseUrl: undefined, serviceDate: undefined, dbPoolSize: 10 });
  });

  it('trains vintages in the background by default, but not under NODE_ENV=test unless asked', () => {
    expect(loadConfig({}).vintageTraining).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).vintageTraining).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).vintageTraining).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', VINTAGE_TRAINING: 'on' }).vintageTraining).toBe(true);
    expect(loadConfig({ VINTAGE_TRAINING: 'off' }).vintageTraining).toBe(false);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', SERVICE_DATE: '' })).toMatchObject({ port: 4000, serviceDate: undefined });
  });

  it.each([
    ['SERVICE_DATE', '2021-02-30', /SERVICE_DATE: is not a calendar date/],
    ['SERVICE_DATE', '31/12/2021', /SERVICE_DATE: must be YYYY-MM-DD/],
    ['PORT', '70000', /PORT/],
    ['PORT', 'http', /PORT/],
    ['DATABASE_URL', 'not a url', /DATABASE_URL/],
    ['DB_POOL_SIZE', '1', /DB_POOL_SIZE/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
    ['VINTAGE_TRAINING', 'yes', /VINTAGE_TRAINING: must be on or off/],
    ['ANON_RATE_LIMIT', '-1', /ANON_RATE_LIMIT/],
    ['CORS_ORIGINS', 'https://app.example.com/path', /CORS_ORIGINS.*must be an origin/],
    ['CORS_ORIGINS', 'app.example.com', /CORS_ORIGINS.*must be an origin/],
    ['WEBHOOK_ALLOW_PRIVATE', 'yes', /WEBHOOK_ALLOW_PRIVATE: must be true or false/],
    ['WEBHOOK_SECRET_KEY', 'c2hvcnQ=', /WEBHOOK_SECRET_KEY: must be 32 bytes in base64/],
    ['RETENTION_DAYS', '30', /RETENTION_DAYS: must be at least 31/],
    ['RETENTION_DAYS', 'forever', /RETENTION_DAYS/],
  ])('refuses %s=%s, naming the variable', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it('limits requests without a valid key, or failing, to 120 a minute per address unless ANON_RATE_LIMIT says otherwise (0: off)', () => {
    expect(loadConfig({}).anonRateLimit).toBe(120);
    expect(loadConfig({ ANON_RATE_LIMIT: '0' }).anonRateLimit).toBe(0);
    expect(loadConfig({ ANON_RATE_LIMIT: '600' }).anonRateLimit).toBe(600);
  });

  it('refuses private webhook addresses unless WEBHOOK_ALLOW_PRIVATE=true, and reads WEBHOOK_SECRET_KEY as 32 bytes', () => {
    expect(loadConfig({}).webhookAllowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
    const key = Buffer.alloc(32, 9);
    expect(loadConfig({ WEBHOOK_SECRET_KEY: key.toString('base64') }).webhookSecretKey).toEqual(key);
  });

  it('reads CHAT_WEBHOOK_HOSTS as comma-separated host names with *. wildcards, Slack’s and Microsoft’s webhook hosts by default', () => {
    expect(loadConfig({}).chatWebhookHosts).toEqual(['hooks.slack.com', '*.webhook.office.com', '*.logic.azure.com', '*.powerplatform.com']);
    expect(loadConfig({ CHAT_WEBHOOK_HOSTS: ' Hooks.Slack.com, *.chat.example.org ,' }).chatWebhookHosts).toEqual(['hooks.slack.com', '*.chat.example.org']);
    for (const bad of ['https://hooks.slack.com', 'hooks.slack.com:443', '*', '*.', 'a.*.example.com', '10.0.0.1', ' , '])
      expect(() => loadConfig({ CHAT_WEBHOOK_HOSTS: bad })).toThrow(/^Invalid configuration: CHAT_WEBHOOK_HOSTS/);
  });

  it('keeps finished webhook deliveries and events 90 days unless RETENTION_DAYS says otherwise', () => {
    expect(loadConfig({}).retentionDays).toBe(90);
    expect(loadConfig({ RETENTION_DAYS: '31' }).retentionDays).toBe(31);
    expect(loadConfig({ RETENTION_DAYS: '400' }).retentionDays).toBe(400);
  });

  it('follows the live Bills API with BILLS_SNAPSHOT=none, syncing every 15 minutes unless SYNC_INTERVAL says otherwise; a snapshot is not re-read unless asked', () => {
    expect(loadConfig({ BILLS_SNAPSHOT: 'none' })).toMatchObject({ snapshotDir: undefined, syncIntervalSeconds: 900 });
    expect(loadConfig({ BILLS_SNAPSHOT: 'none', SYNC_INTERVAL: '0' }).syncIntervalSeconds).toBe(0);
    expect(loadConfig({ BILLS_SNAPSHOT: '/tmp/snap' })).toMatchObject({ snapshotDir: '/tmp/snap', syncIntervalSeconds: 0 });
    expect(loadConfig({ BILLS_SNAPSHOT: '/tmp/snap', SYNC_INTERVAL: '60' }).syncIntervalSeconds).toBe(60);
    expect(() => loadConfig({ SYNC_INTERVAL: '-5' })).toThrow(/SYNC_INTERVAL/);
  });

  it('retrains every 7 days on the live Bills API unless RETRAIN_INTERVAL_DAYS says otherwise; on a snapshot only when asked', () => {
    expect(loadConfig({ BILLS_SNAPSHOT: 'none' }).retrainIntervalDays).toBe(7);
    expect(loadConfig({ BILLS_SNAPSHOT: 'none', RETRAIN_INTERVAL_DAYS: '0' }).retrainIntervalDays).toBe(0);
    expect(loadConfig({ BILLS_SNAPSHOT: '/tmp/snap' }).retrainIntervalDays).toBe(0);
    expect(loadConfig({ BILLS_SNAPSHOT: '/tmp/snap', RETRAIN_INTERVAL_DAYS: '14' }).retrainIntervalDays).toBe(14);
    expect(() => loadConfig({ RETRAIN_INTERVAL_DAYS: '1.5' })).toThrow(/RETRAIN_INTERVAL_DAYS/);
  });

  it('accepts a real date for SERVICE_DATE', () => {
    expect(loadConfig({ SERVICE_DATE: '2020-02-29' }).serviceDate).toBe('2020-02-29');
  });

  it('reads CORS_ORIGINS as a comma-separated list of origins, none by default', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: ' https://app.example.com, http://localhost:5173 ,' }).corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });
});
