// `npm run cli -- invoices correct <id> --file client.json | --clear`: the merchant's correction of an invoice's client
// (docs/design.md §10), validated whole before anything is saved; saved, the invoice goes back to the queue and the running
// app's worker sends it with the corrected client. --clear drops a stored correction.
import { type ClientCorrection, clientCorrectionSchema } from '../../mappers/invoice/client-correction.ts';
import { correctClient } from '../documents/correct-client.ts';
import { reinvoice } from '../documents/reinvoice.ts';
import {
  CliFailure,
  CliInputError,
  type CliIo,
  EXIT_OK,
  type OpenContext,
  parseCommandArgs,
  readJsonFile,
  requireDocumentId,
  withContext,
} from './cli-context.ts';

const USAGE = 'invoices correct <invoice id> --file <client.json> | --clear';

export async function correctInvoice(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const { positionals, values, flags } = parseCommandArgs(args, { values: ['file'], flags: ['clear'], positionals: 1 }, USAGE);
  const id = requireDocumentId(positionals, USAGE);
  const file = values['file'];
  if ((file === undefined) === !flags.has('clear')) throw new CliInputError(`give --file or --clear, one of them (${USAGE})`);
  // Read and check the file before opening the database: bad input changes nothing.
  const correction = file === undefined ? null : readCorrection(file);

  return withContext(open, io, async (ctx) => {
    const { doc } = accepted(id, await correctClient(ctx.database.db, { id }, correction));
    io.out(
      correction
        ? `Invoice ${doc.id} (${doc.shop} ${doc.orderName}): client corrected (${describe(correction)}); back in the queue.`
        : `Invoice ${doc.id} (${doc.shop} ${doc.orderName}): correction removed; retry it with \`invoices retry ${doc.id}\`.`,
    );
    return EXIT_OK;
  });
}

const REINVOICE_USAGE = 'invoices reinvoice <invoice id> --file <client.json>';

/** `invoices reinvoice <id> --file client.json`: an authorized invoice to the wrong buyer, replaced (docs/design.md §9). */
export async function reinvoiceInvoice(args: readonly string[], io: CliIo, open: OpenContext): Promise<number> {
  const { positionals, values } = parseCommandArgs(args, { values: ['file'], positionals: 1 }, REINVOICE_USAGE);
  const id = requireDocumentId(positionals, REINVOICE_USAGE);
  const file = values['file'];
  if (file === undefined) throw new CliInputError(`--file names the right buyer (${REINVOICE_USAGE})`);
  const correction = readCorrection(file);
  return withContext(open, io, async (ctx) => {
    const outcome = accepted(id, await reinvoice(ctx.database.db, { id }, correction));
    const { invoice } = outcome;
    io.out(
      `Invoice ${invoice.id} (${invoice.shop} ${invoice.orderName}) is being replaced: credit note ${outcome.noteId} for all of it, ` +
        `and invoice ${outcome.replacementId} to ${describe(correction)}. The running app issues both.`,
    );
    return EXIT_OK;
  });
}

type Refusal = { kind: 'not_found' } | { kind: 'refused'; reason: string };

/** What was done, or the command's failure: no such invoice, or why it was refused. */
function accepted<O extends { kind: string }>(id: string, outcome: O): Exclude<O, Refusal> {
  if (outcome.kind === 'not_found') throw new CliFailure(`no invoice ${id}`);
  if (outcome.kind === 'refused' && 'reason' in outcome) throw new CliFailure(`invoice ${id}: ${String(outcome.reason)}`);
  return outcome as Exclude<O, Refusal>;
}

function readCorrection(file: string): ClientCorrection {
  const parsed = clientCorrectionSchema.safeParse(readJsonFile(file, 'client'));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(file)'}: ${i.message}`);
  throw new CliInputError(`the client file ${file} was not saved: ${problems.join('; ')}`);
}

function describe(c: ClientCorrection): string {
  return c.type === 'taxpayer' ? `taxpayer, RUC ${c.ruc} DV ${c.dv}` : 'final consumer';
}
