// `npm run demo`: plays the store. Sends a handful of realistic paid orders through the running demo
// (`npm start`) and prints, for each, the fiscal number, CUFE, QR address, PDF link and buyer's page written on the
// order, and the file of the e-mail its buyer received (the demo's mail catcher keeps each one). Then it refunds one unit of the
// first order, as a merchant would on the order's page, and prints the credit note written on the order.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../../src/config/env.ts';
import { BUYER_EMAIL, type EmailFacts } from '../../src/messages/email-texts.ts';
import { type DemoInfo, demoInfoFile } from './demo-setup.ts';
import type { MailIndexEntry } from './mail-catcher.ts';

const ORDERS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'orders');
const WAIT_MS = 30_000;
const MAIL_WAIT_MS = 10_000;

interface Metafield {
  key: string;
  value: string;
}

interface SentOrder {
  name: string;
  gid: string;
  label: string;
  order: { currency?: string; line_items: { id: number; title: string }[] };
}

/** One entry of the order's `credit_notes` metafield. */
interface CreditNoteEntry {
  fiscal_number: string;
  cufe: string;
  pdf_url: string;
  amount: string;
  refund_id: string;
}

async function main(): Promise<number> {
  let dataDir: string;
  try {
    dataDir = loadConfig().dataDir;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  const infoPath = demoInfoFile(dataDir);
  if (!fs.existsSync(infoPath)) {
    console.error(`No running demo found (${infoPath} is missing). Start it first with \`npm start\` in another terminal.`);
    return 2;
  }
  const info = JSON.parse(fs.readFileSync(infoPath, 'utf8')) as DemoInfo;
  const reachable = await fetch(`${info.simulatorOrigin}/_simulator/calls`)
    .then((r) => r.ok)
    .catch(() => false);
  if (!reachable) {
    console.error(`The demo at ${info.appUrl} is not answering. Start it with \`npm start\` and run this again.`);
    return 2;
  }

  // Fresh ids each run, so every run makes new orders (and new invoices).
  const runId = Date.now();
  const files = fs
    .readdirSync(ORDERS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const sent: SentOrder[] = [];
  for (const [i, file] of files.entries()) {
    const order = JSON.parse(fs.readFileSync(path.join(ORDERS_DIR, file), 'utf8')) as SentOrder['order'] & Record<string, unknown>;
    const id = runId * 100 + i;
    const name = `#D${String(runId).slice(-5)}${i + 1}`;
    Object.assign(order, { id, admin_graphql_api_id: `gid://shopify/Order/${id}`, name, order_number: id % 1_000_000 });
    const body = await control<{ orderGid?: string; delivery?: { status: number; body: string } }>(info, 'orders/paid', {
      shop: info.shop,
      order,
      address: info.webhookAddress,
    });
    if (!body.orderGid) {
      console.error(`${name}: the simulator refused the order: ${body.error}`);
      continue;
    }
    const label = String((order as { note?: string }).note ?? file.replace(/\.json$/, ''));
    console.log(`${name}  ${label}: webhook answered ${body.delivery?.status} ${body.delivery?.body ?? ''}`);
    sent.push({ name, gid: body.orderGid, label, order });
  }

  console.log('\nWaiting for the invoices to be authorized and written back to the orders…\n');
  let failures = 0;
  for (const order of sent) {
    // The invoice's metafields (seven; six for an invoice recovered without its protocol).
    const fields = await fromMetafields(info, order.gid, (f) =>
      f.length >= 6 ? Object.fromEntries(f.map((m) => [m.key, m.value])) : undefined,
    );
    if (!fields) {
      failures++;
      console.log(`${order.name}  not written back within ${WAIT_MS / 1000} s — see ${info.appUrl}/admin for the reason`);
      continue;
    }
    const fiscalNumber = fields.fiscal_number ?? '';
    console.log(
      [
        `${order.name}  ${order.label}`,
        `  fiscal number  ${fiscalNumber}`,
        `  CUFE           ${fields.cufe}`,
        `  QR address     ${fields.qr_url}`,
        `  PDF            ${fields.pdf_url}`,
        `  buyer's page   ${fields.buyer_url ?? ''}`,
        `  e-mail         ${await emailLine(info, { kind: 'invoice', fiscalNumber, orderName: order.name })}`,
        '',
      ].join('\n'),
    );
  }
  const first = sent[0];
  if (first && !(await refundOne(info, first))) failures++;
  await printFlowTriggers(info);
  return failures === 0 ? 0 : 1;
}

/** The Shopify Flow triggers the store took for the demo shop (docs/flow.md), one line each. */
async function printFlowTriggers(info: DemoInfo): Promise<void> {
  // The Flow runner sends shortly after each document completes.
  await new Promise((r) => setTimeout(r, 2_000));
  const answer = await fetch(`${info.simulatorOrigin}/_simulator/flow-triggers?shop=${encodeURIComponent(info.shop)}`);
  const { triggers } = (await answer.json()) as { triggers: { handle: string; payload: Record<string, unknown> }[] };
  console.log(`Shopify Flow triggers fired: ${triggers.length}`);
  for (const t of triggers) {
    const { order_id: order, ...fields } = t.payload;
    const shown = Object.entries(fields).map(([k, v]) => `${k}: ${String(v).slice(0, 60)}`);
    console.log(`  ${t.handle}  order ${String(order)}  ${shown.join(', ')}`);
  }
}

/** A call to the store simulator's control API; `error` holds its refusal. */
async function control<T>(info: DemoInfo, route: string, body: unknown): Promise<Partial<T> & { error?: string }> {
  const answer = await fetch(`${info.simulatorOrigin}/_simulator/${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const read = (await answer.json()) as Partial<T> & { error?: string };
  return answer.ok ? read : { ...read, error: read.error ?? `HTTP ${answer.status}` };
}

/** One unit of the order's first line back, as the merchant would refund it in Shopify; then its credit note. */
async function refundOne(info: DemoInfo, order: SentOrder): Promise<boolean> {
  const line = order.order.line_items[0]!;
  const body = await control<{ refund: { id: number }; delivery: { status: number; body: string } }>(info, 'orders/refund', {
    shop: info.shop,
    orderGid: order.gid,
    request: { lines: [{ lineItemId: line.id, quantity: 1 }] },
    address: info.refundsAddress,
  });
  if (!body.refund) {
    console.error(`${order.name}: the simulator refused the refund: ${body.error}`);
    return false;
  }
  console.log(`${order.name}  refund of one "${line.title}": webhook answered ${body.delivery?.status} ${body.delivery?.body ?? ''}`);
  console.log('\nWaiting for the credit note to be authorized and written back to the order…\n');
  const refundGid = `gid://shopify/Refund/${body.refund.id}`;
  const note = await fromMetafields(info, order.gid, (f) => creditNotes(f).find((n) => n.refund_id === refundGid));
  if (!note) {
    console.log(`${order.name}  credit note not written back within ${WAIT_MS / 1000} s — see ${info.appUrl}/admin for the reason`);
    return false;
  }
  console.log(
    [
      `${order.name}  credit note for refund ${body.refund.id}`,
      `  fiscal number  ${note.fiscal_number}`,
      `  CUFE           ${note.cufe}`,
      `  amount         ${note.amount} ${order.order.currency ?? 'USD'}`,
      `  PDF            ${note.pdf_url}`,
      `  e-mail         ${await emailLine(info, { kind: 'credit_note', fiscalNumber: note.fiscal_number, orderName: order.name })}`,
      '',
    ].join('\n'),
  );
  return true;
}

/** The order's `credit_notes` metafield, read. */
function creditNotes(fields: Metafield[]): CreditNoteEntry[] {
  const value = fields.find((f) => f.key === 'credit_notes')?.value;
  return value ? (JSON.parse(value) as CreditNoteEntry[]) : [];
}

/** The caught e-mail of a document: the one whose subject is its subject in either language; its file and recipient. */
async function emailLine(info: DemoInfo, doc: Pick<EmailFacts, 'kind' | 'fiscalNumber' | 'orderName'>): Promise<string> {
  if (!info.mailDir) return 'sent through the configured SMTP server';
  const facts: EmailFacts = { ...doc, shopName: info.shopName, total: '', cufe: '', qr: '' };
  const subjects = new Set(Object.values(BUYER_EMAIL).map((texts) => texts.subject(facts)));
  const indexFile = path.join(info.mailDir, 'index.json');
  const deadline = Date.now() + MAIL_WAIT_MS;
  while (Date.now() < deadline) {
    const index = fs.existsSync(indexFile) ? (JSON.parse(fs.readFileSync(indexFile, 'utf8')) as MailIndexEntry[]) : [];
    const found = index.find((m) => subjects.has(m.subject));
    if (found) return `${path.relative(process.cwd(), found.file)}   (to ${found.to.join(', ')}: "${found.subject}")`;
    await new Promise((r) => setTimeout(r, 250));
  }
  return `none within ${MAIL_WAIT_MS / 1000} s — see the document in ${info.appUrl}/admin`;
}

/** What `pick` finds in the order's metafields, once it finds it (undefined after WAIT_MS). */
async function fromMetafields<T>(info: DemoInfo, gid: string, pick: (fields: Metafield[]) => T | undefined): Promise<T | undefined> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const answer = await fetch(
      `${info.simulatorOrigin}/_simulator/metafields?order=${encodeURIComponent(gid)}&shop=${encodeURIComponent(info.shop)}`,
    );
    const { metafields } = (await answer.json()) as { metafields: Metafield[] };
    const found = pick(metafields);
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
