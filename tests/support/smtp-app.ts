import { startSmtpServer, type TestSmtpServer } from './smtp-server';
import { startTestApp, type TestApp } from './test-app';

/** A test app whose mail worker sends to a real SMTP server of its own; `close` stops both. */
export interface SmtpTestApp extends TestApp {
  smtp: TestSmtpServer;
}

/** The PUBLIC_URL the mails' links are under. */
export const SMTP_APP_PUBLIC_URL = 'https://bills.example.com';

/** Starts an SMTP server, then a test app that delivers its mail outbox there (with links under SMTP_APP_PUBLIC_URL unless `options` say otherwise). */
export async function appWithSmtpServer(options: Parameters<typeof startTestApp>[0] = {}): Promise<SmtpTestApp> {
  const smtp = await startSmtpServer();
  try {
    const app = await startTestApp({ deliverMail: true, smtpUrl: smtp.url, publicUrl: SMTP_APP_PUBLIC_URL, ...options });
    const closeApp = app.close;
    return Object.assign(app, {
      smtp,
      async close() {
        await closeApp();
        await smtp.close();
      },
    });
  } catch (error) {
    // the app never started: the server would keep jest alive
    await smtp.close();
    throw error;
  }
}
