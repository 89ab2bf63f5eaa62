// The process's one SMTP transport (nodemailer, pooled: connections stay open between e-mails), and what its
// failures mean. The SMTP URL's user and password never leave this module: failures are described without them.
import nodemailer from 'nodemailer';
import type { MailSettings } from '../config/env.ts';
import { secretScrubber } from '../secret-scrub.ts';

/** An e-mail as the runner hands it over (nodemailer's message fields, From included). */
export type OutgoingEmail = Parameters<ReturnType<typeof nodemailer.createTransport>['sendMail']>[0];

export type SendResult = { ok: true; messageId: string } | { ok: false; permanent: boolean; detail: string };

export interface Mailer {
  send(email: OutgoingEmail): Promise<SendResult>;
  /** Where it sends, for a log line: protocol, host and port (never the user or password). */
  readonly server: string;
  close(): void;
}

export function createMailer(settings: Pick<MailSettings, 'smtpUrl'>): Mailer {
  const url = new URL(settings.smtpUrl);
  const scrub = passwordScrubber(url);
  const connect = () =>
    nodemailer.createTransport({
      url: settings.smtpUrl,
      pool: true,
      maxConnections: 3,
      // Fail an attempt within the e-mail lease; the runner retries later.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      logger: false,
      debug: false,
    });
  let transport = connect();
  const server = `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
  return {
    server,
    async send(email) {
      // The socket time-out is per silence: a server answering a byte now and then would hold the e-mail for ever.
      // The whole exchange gets a deadline; past it the pool's connections are dropped and a new pool is made.
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new SmtpDeadline()), SEND_DEADLINE_MS);
      });
      const sending = transport;
      try {
        const info = await Promise.race([sending.sendMail(email), deadline]);
        return { ok: true, messageId: String(info.messageId) };
      } catch (error) {
        if (error instanceof SmtpDeadline) {
          if (transport === sending) transport = connect();
          sending.close();
          return { ok: false, permanent: false, detail: `the mail server did not finish within ${SEND_DEADLINE_MS / 1000} s` };
        }
        return { ok: false, permanent: isRefusal(error), detail: scrub(describe(error)).slice(0, 300) };
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => transport.close(),
  };
}

/** The whole exchange of one e-mail with the server, however slowly it answers. */
const SEND_DEADLINE_MS = 60_000;

class SmtpDeadline extends Error {}

interface SmtpError {
  code?: string;
  command?: string;
  responseCode?: number;
  permanent?: boolean;
  message?: string;
}

/**
 * The server refused this recipient or this message for good (5xx to RCPT TO or to the message): sending it again
 * would not help. Anything else (a login refused, the sender refused, the server away) may be fixed, so it is retried.
 */
function isRefusal(error: unknown): boolean {
  const e = (error ?? {}) as SmtpError;
  return e.permanent === true && (e.command?.startsWith('RCPT') === true || e.code === 'EMESSAGE');
}

function describe(error: unknown): string {
  const e = (error ?? {}) as SmtpError;
  const text = [e.code, e.responseCode, e.message].filter((p) => p !== undefined && p !== '').join(' ');
  // Cut only after the secrets are out (a cut could leave part of one).
  return (text || String(error)).replace(/\s+/g, ' ').trim().slice(0, 4000);
}

/**
 * A scrubber of the URL's password as a server's reply may repeat it: plain, URL-encoded however the server encodes
 * it, in base64 at any alignment (AUTH PLAIN's "\0user\0password") and JSON-escaped (src/secret-scrub.ts).
 */
function passwordScrubber(url: URL): (text: string) => string {
  let pass = url.password;
  try {
    pass = decodeURIComponent(url.password);
  } catch {
    // Kept as written.
  }
  return secretScrubber([pass, url.password]);
}

/** The text with every form of the secrets replaced. */
export function redact(text: string, secrets: readonly string[]): string {
  return secretScrubber(secrets)(text);
}
