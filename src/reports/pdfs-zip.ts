// The bulk download (docs/merchants.md, "Acciones en lote"): the selected documents' stored PDFs in one ZIP, named by
// type and number as the month's ZIP names them (month-zip.ts), written by archiver as it is read. One PDF is read at
// a time, and the next only once the archive has written the last one out, so memory holds one PDF however many are
// selected and however slowly the reader takes the bytes.
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/database.ts';
import { storedPdf } from '../documents/store/index.ts';
import { pdfFileName } from './month-zip.ts';

export interface ZipDocument {
  id: string;
  kind: string;
  environment: string | null;
  branchCode: string | null;
  billingPoint: string | null;
  fiscalNumber: number | null;
}

/** Entry names, unique: a test and a production document may share a number, so the second says its environment. */
export function zipNames(docs: readonly ZipDocument[]): string[] {
  const used = new Set<string>();
  return docs.map((d) => {
    const base = pdfFileName(d).replace(/\.pdf$/, '');
    let name = `${base}.pdf`;
    for (let n = 2; used.has(name); n++) name = n === 2 && d.environment ? `${base}-${d.environment}.pdf` : `${base}-${n}.pdf`;
    used.add(name);
    return name;
  });
}

/**
 * Write the ZIP of `docs`' PDFs to `out` (a document whose PDF is gone by now is left out), then `note` as a text file
 * when given; resolves when the archive is finalized, with how many PDFs it holds.
 */
export async function writePdfsZip(
  db: Db,
  docs: readonly ZipDocument[],
  out: Writable,
  note?: { name: string; text: string },
): Promise<number> {
  // Loaded on use, from node_modules (left out of the bundle, scripts/bundle-app.ts).
  const { ZipArchive } = await import('archiver');
  const archive = new ZipArchive({ zlib: { level: 6 } });
  let processed = 0;
  let wanted = 0;
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  archive.on('entry', () => {
    processed++;
    if (processed >= wanted) wake?.();
  });
  const failed = (error: Error) => {
    failure = error;
    wake?.();
  };
  archive.on('error', failed);
  archive.on('warning', failed);
  const written = pipeline(archive, out);
  written.catch(failed);
  const caughtUp = () =>
    new Promise<void>((resolve) => {
      if (processed >= wanted || failure) return resolve();
      wake = resolve;
    });

  try {
    const names = zipNames(docs);
    let zipped = 0;
    for (const [i, doc] of docs.entries()) {
      if (failure) throw failure;
      const bytes = await storedPdf(db, doc.id);
      if (!bytes) continue;
      // Stored, not deflated: a PDF is compressed already, and the entry is then its link's bytes exactly.
      archive.append(bytes, { name: names[i]!, store: true });
      wanted++;
      zipped++;
      await caughtUp();
    }
    if (note) {
      archive.append(note.text, { name: note.name });
      wanted++;
      await caughtUp();
    }
    if (failure) throw failure;
    await archive.finalize();
    await written;
    return zipped;
  } catch (error) {
    archive.abort();
    throw error;
  }
}
