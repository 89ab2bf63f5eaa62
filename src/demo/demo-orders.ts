// `npm run demo`: plays the store. Sends a handful of realistic paid orders through the running demo
// (`npm start`) and prints, for each, the fiscal number, CUFE, QR address and PDF link written on the order, and
// the file of the e-mail its buyer received (the demo's mail catcher keeps each one).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../config/env.ts';
import { type DemoInfo, demoInfoFile } from './demo-setup.ts';
import type { MailIndexEntry } from './mail-catcher.ts';

const ORDERS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'orders');
const WAIT_MS = 30_000;
const MAIL_WAIT_MS = 10_000;

interface Metafield {
  key: string;
  value: string;
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
  const sent: { name: string; gid: string; label: string }[] = [];
  for (const [i, file] of files.entries()) {
    const order = JSON.parse(fs.readFileSync(path.join(ORDERS_DIR, file), 'utf8')) as Record<string, unknown>;
    const id = runId * 100 + i;
    const name = `#D${String(runId).slice(-5)}${i + 1}`;
    Object.assign(order, { id, admin_graphql_api_id: `gid://shopify/Order/${id}`, name, order_number: id % 1_000_000 });
    const answer = await fetch(`${info.simulatorOrigin}/_simulator/orders/paid`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ shop: info.shop, order, address: info.webhookAddress }),
    });
    const body = (await answer.json()) as { orderGid?: string; delivery?: { status: number; body: string }; error?: string };
    if (!answer.ok || !body.orderGid) {
      console.error(`${name}: the simulator refused the order: ${body.error ?? answer.status}`);
      continue;
    }
    const label = String((order as { note?: string }).note ?? file.replace(/\.json$/, ''));
    console.log(`${name}  ${label}: webhook answered ${body.delivery?.status} ${body.delivery?.body ?? ''}`);
    sent.push({ name, gid: body.orderGid, label });
  }

  console.log('\nWaiting for the invoices to be authorized and written back to the orders…\n');
  let failures = 0;
  for (const order of sent) {
    const fields = await waitForMetafields(info, order.gid);
    if (!fields) {
      failures++;
      console.log(`${order.name}  not written back within ${WAIT_MS / 1000} s — see ${info.appUrl}/admin for the reason`);
      continue;
    }
    console.log(
      [
        `${order.name}  ${order.label}`,
        `  fiscal number  ${fields.fiscal_number}`,
        `  CUFE           ${fields.cufe}`,
        `  QR address     ${fields.qr_url}`,
        `  PDF            ${fields.pdf_url}`,
        `  e-mail         ${await emailLine(info, fields.fiscal_number ?? '')}`,
        '',
      ].join('\n'),
    );
  }
  return failures === 0 ? 0 : 1;
}

/** The caught e-mail of the document with this fiscal number: its file and recipient. */
async function emailLine(info: DemoInfo, fiscalNumber: string): Promise<string> {
  if (!info.mailDir) return 'sent through the configured SMTP server';
  const indexFile = path.join(info.mailDir, 'index.json');
  const deadline = Date.now() + MAIL_WAIT_MS;
  while (Date.now() < deadline) {
    const index = fs.existsSync(indexFile) ? (JSON.parse(fs.readFileSync(indexFile, 'utf8')) as MailIndexEntry[]) : [];
    const found = index.find((m) => fiscalNumber !== '' && m.subject.includes(fiscalNumber));
    if (found) return `${path.relative(process.cwd(), found.file)}   (to ${found.to.join(', ')}: "${found.subject}")`;
    await new Promise((r) => setTimeout(r, 250));
  }
  return `none within ${MAIL_WAIT_MS / 1000} s — see the invoice in ${info.appUrl}/admin`;
}

async function waitForMetafields(info: DemoInfo, gid: string): Promise<Record<string, string> | undefined> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const answer = await fetch(
      `${info.simulatorOrigin}/_simulator/metafields?order=${encodeURIComponent(gid)}&shop=${encodeURIComponent(info.shop)}`,
    );
    const { metafields } = (await answer.json()) as { metafields: Metafield[] };
    if (metafields.length >= 6) return Object.fromEntries(metafields.map((m) => [m.key, m.value]));
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
