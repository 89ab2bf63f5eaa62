// `invoices show <id> [--json]`: one document. --json is exact (UTC times, the stored values); for people, the page's
// status word, times in Panama, the PDF and the totals as sentences, the problems one a line, its relatives, what may
// be done with it and why not (the same decision as the page's), and its gateway calls.
import type { GatewayDocument } from '../../mappers/gateway/gateway-document.ts';
import { reasonFor } from '../admin/document-view.ts';
import { actionsOf } from '../documents/document-actions.ts';
import { documentCalls, findDocument, pdfInfo, relatedDocuments } from '../documents/store/index.ts';
import { localizeProblems, render } from '../messages/catalogue.ts';
import { asMessage } from '../messages/message.ts';
import {
  CliFailure,
  type CliIo,
  EXIT_OK,
  type OpenContext,
  formatTable,
  parseCommandArgs,
  requireDocumentId,
  withContext,
} from './cli-context.ts';
import { actionsJson, actionsLines, relativesJson, relativesLines } from './document-relatives.ts';
import { PANAMA_LABEL, panamaTime, statusWord } from './document-words.ts';
import { labelled, oneLine, shopStates, summary } from './invoice-output.ts';
import { terminalText } from './terminal-text.ts';

const line = (key: string, value: string) => `${`${key}:`.padEnd(19)}${terminalText(value)}`;

/** A stored time as people read it: Panama time, labelled; text that is no time as it is. */
function timeText(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : labelled(date);
}

/** "stored, 48213 bytes, SHA-256 9f…": the link itself is a credential, shown only on the order. */
function pdfText(pdf: { bytes: number; sha256: string } | undefined): string {
  return pdf ? `stored, ${pdf.bytes} bytes, SHA-256 ${pdf.sha256}` : 'not stored yet';
}

/** "net 70.82 + ITBMS 4.96 = 75.78 USD", from the document as sent. */
function totalsText(totals: GatewayDocument['totalsSubTotals'] | null, currency: string): string | null {
  if (!totals) return null;
  const t = totals as unknown as Record<string, unknown>;
  const text = (k: string) => (typeof t[k] === 'string' || typeof t[k] === 'number' ? String(t[k]) : '?');
  return `net ${text('totalPriceNet')} + ITBMS ${text('totalITBMS')} = ${text('totalInvoice')} ${currency}`;
}

export async function show(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const usage = 'invoices show <invoice id> [--json]';
  const { positionals, flags } = parseCommandArgs(args, { flags: ['json'], positionals: 1 }, usage);
  const id = requireDocumentId(positionals, usage);
  return withContext(open, io, async (ctx) => {
    const row = await findDocument(ctx.database.db, id);
    if (!row) throw new CliFailure(`no invoice ${id}`);
    const [pdf, calls, states, related] = await Promise.all([
      pdfInfo(ctx.database.db, id),
      documentCalls(ctx.database.db, id),
      shopStates(ctx, [row]),
      relatedDocuments(ctx.database.db, row),
    ]);
    const shop = states.get(row.shop)!;
    // The same decision as the page's (document-actions.ts); the running app e-mails when it has SMTP (the demo its catcher).
    const actions = actionsOf(row, related, ctx.config.mail !== undefined || ctx.config.demo);
    const times = {
      nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
      authorizedAt: row.authorizedAt,
      writtenBackAt: row.writtenBackAt,
    };
    const totals = (row.document as GatewayDocument | null)?.totalsSubTotals ?? null;
    const detail = {
      ...summary(row),
      documentType: row.documentType,
      attempts: row.attempts,
      ...Object.fromEntries(Object.entries(times).map(([k, t]) => [k, t?.toISOString() ?? null])),
      environment: row.environment,
      qr: row.qr,
      protocol: row.protocol,
      receptionDateDgi: row.receptionDateDgi,
      // The link's token is a credential (whoever has it reads the invoice): shown only on the order itself.
      pdf: pdf ? { stored: true, ...pdf } : { stored: false },
      lastErrorKind: row.lastErrorKind,
      lastErrorCode: row.lastErrorCode,
      problems: row.problems,
      notice: row.notice,
      snapshotRedacted: row.snapshotRedacted,
      documentTotals: totals,
      gatewayCalls: calls.map((c) => ({
        operation: c.operation,
        outcome: c.outcome,
        code: c.code,
        durationMs: c.durationMs,
        at: c.createdAt.toISOString(),
      })),
      ...relativesJson(row, related),
      actions: actionsJson(actions),
    };
    if (flags.has('json')) {
      io.out(JSON.stringify(detail, null, 2));
      return EXIT_OK;
    }
    const notice = asMessage(row.notice);
    const problems = localizeProblems(row.problems);
    // For people: the page's status word, Panama times, the PDF and totals as sentences; the rest as stored, one a line.
    const people: Record<string, unknown> = {
      ...detail,
      status: `${statusWord({ ...row, reason: reasonFor(row, shop) })} (${row.status})`,
      createdAt: labelled(row.createdAt),
      ...Object.fromEntries(Object.entries(times).map(([k, t]) => [k, t && labelled(t)])),
      receptionDateDgi: row.receptionDateDgi === null ? null : timeText(row.receptionDateDgi),
      pdf: pdfText(pdf),
      problems: undefined,
      notice: notice ? render(notice, 'en') : null,
      documentTotals: totalsText(totals, row.currency),
      gatewayCalls: undefined,
      creditNotes: undefined,
      refundId: undefined,
      invoice: undefined,
      reference: undefined,
      replacedBy: undefined,
      replaces: undefined,
      actions: undefined,
    };
    for (const [key, value] of Object.entries(people)) {
      if (value === null || value === undefined) continue;
      io.out(line(key, typeof value === 'object' ? JSON.stringify(value) : String(value)));
    }
    if (problems.length > 0) {
      io.out('problems:');
      for (const p of problems) io.out(`  - ${terminalText(p.text.en)}`);
    }
    for (const l of actionsLines(actions)) io.out(l);
    for (const l of relativesLines(row, related, shop)) io.out(l);
    if (calls.length === 0) io.out('gatewayCalls:      none');
    else {
      io.out('gatewayCalls:');
      const table = formatTable(
        [`TIME (${PANAMA_LABEL.toUpperCase()})`, 'OPERATION', 'OUTCOME', 'CODE', 'DURATION', 'MESSAGE'],
        calls.map((c) => [panamaTime(c.createdAt), c.operation, c.outcome, c.code ?? '-', `${c.durationMs} ms`, oneLine(c.message, 60)]),
      );
      for (const l of table) io.out(`  ${l}`);
    }
    return EXIT_OK;
  });
}
