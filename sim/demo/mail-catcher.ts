// An SMTP server on loopback that keeps every message it is sent (smtp-server receives, mailparser reads): the demo's
// and the tests' mailbox, spoken to over real SMTP. With a folder, each message is also written there as an .eml
// file, listed in index.json (file, to, subject), so a person can open it in any mail client.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import writeFileAtomic from 'write-file-atomic';

export interface CaughtMail {
  /** 1, 2, … in arrival order. */
  seq: number;
  /** The SMTP envelope: MAIL FROM and RCPT TO. */
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
  /** The .eml file, when the catcher writes to a folder. */
  file: string | undefined;
}

export interface MailCatcherOptions {
  /** 0 (default): any free port. */
  port?: number;
  /** Require this login (AUTH PLAIN/LOGIN over the plain connection, as on loopback). */
  auth?: { user: string; pass: string };
  /** Write each message here as 0001.eml, 0002.eml, …, listed in index.json. */
  dir?: string;
}

export interface MailCatcher {
  port: number;
  /** smtp://[user:pass@]127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  messages(): CaughtMail[];
  close(): Promise<void>;
}

export interface MailIndexEntry {
  file: string;
  to: string[];
  subject: string;
  receivedAt: string;
}

export async function startMailCatcher(o: MailCatcherOptions = {}): Promise<MailCatcher> {
  const caught: CaughtMail[] = [];
  if (o.dir) fs.mkdirSync(o.dir, { recursive: true });
  const server = new SMTPServer({
    // Loopback only: no TLS to offer, so the client sends in the clear (and logs in that way when asked to).
    secure: false,
    disabledCommands: o.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !o.auth,
    allowInsecureAuth: true,
    logger: false,
    // Closing does not wait for clients' idle pooled connections.
    closeTimeout: 100,
    onAuth(auth, _session, callback) {
      if (o.auth && auth.username === o.auth.user && auth.password === o.auth.pass) return callback(null, { user: auth.username });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const seq = caught.length + 1;
            const envelope = {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            };
            const file = o.dir ? keep(o.dir, raw, envelope.to, parsed.subject ?? '') : undefined;
            caught.push({ seq, envelope, raw, parsed, file });
            callback();
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(o.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const login = o.auth ? `${encodeURIComponent(o.auth.user)}:${encodeURIComponent(o.auth.pass)}@` : '';
  return {
    port,
    url: `smtp://${login}127.0.0.1:${port}`,
    messages: () => [...caught],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Numbered after the folder's earlier messages (a demo started again keeps them). */
function keep(dir: string, raw: Buffer, to: string[], subject: string): string {
  const indexFile = path.join(dir, 'index.json');
  const index = fs.existsSync(indexFile) ? (JSON.parse(fs.readFileSync(indexFile, 'utf8')) as MailIndexEntry[]) : [];
  const file = path.join(dir, `${String(index.length + 1).padStart(4, '0')}.eml`);
  fs.writeFileSync(file, raw);
  index.push({ file, to, subject, receivedAt: new Date().toISOString() });
  // Replaced whole: `npm run demo` reads the index while e-mails arrive, and must never see it half written (it once
  // read an empty file, "Unexpected end of JSON input").
  writeFileAtomic.sync(indexFile, JSON.stringify(index, null, 2));
  return file;
}
