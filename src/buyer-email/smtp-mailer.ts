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
  const transport = nodemailer.createTransport({
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
  const server = `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
  return {
    server,
    async send(email) {
      try {
        const info = await transport.sendMail(email);
        return { ok: true, messageId: String(info.messageId) };
      } catch (error) {
        return { ok: false, permanent: isRefusal(error), detail: scrub(describe(error)).slice(0, 300) };
      }
    },
    close: () => transport.close(),
  };
}

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
