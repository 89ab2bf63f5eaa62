// The bulk download (docs/merchants.md, "Acciones en lote"): the selected documents' stored PDFs in one ZIP, named by
// type and number as the month's ZIP names them (month-zip.ts), written as it is read (paced-zip.ts): one PDF is read
// at a time, so memory holds one PDF however many are selected and however slowly the reader takes the bytes.
import type { Writable } from 'node:stream';
import type { Db } from '../db/database.ts';
import { storedPdf } from '../documents/store/index.ts';
import { pdfFileName } from './month-zip.ts';
import { writePacedZip } from './paced-zip.ts';

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
  let zipped = 0;
  await writePacedZip(out, async (add) => {
    const names = zipNames(docs);
    for (const [i, doc] of docs.entries()) {
      const bytes = await storedPdf(db, doc.id);
      if (!bytes) continue;
      // Stored, not deflated: the entry is then its link's bytes exactly.
      await add(bytes, { name: names[i]!, store: true });
      zipped++;
    }
    if (note) await add(note.text, { name: note.name });
  });
  return zipped;
}
