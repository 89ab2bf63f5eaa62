// A ZIP written by archiver as it is read, one entry at a time: an entry is appended only once the archive has written
// the previous one out, so memory holds one entry whatever the count and however slowly the reader takes the bytes.
// The month's ZIP and the bulk download both write through it.
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Append one entry and wait until the archive has written it out. `store`: kept as is (a PDF is compressed already). */
export type AddZipEntry = (source: Buffer | string | Readable, entry: { name: string; store?: boolean }) => Promise<void>;

/** Write to `out` the ZIP of the entries `fill` adds; resolves once the archive's last byte is written. */
export async function writePacedZip(out: Writable, fill: (add: AddZipEntry) => Promise<void>): Promise<void> {
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
  // pipeline ends a file and leaves standard output open; it settles once the archive's last byte is written.
  const written = pipeline(archive, out);
  written.catch(failed);
  const add: AddZipEntry = async (source, entry) => {
    if (failure) throw failure;
    if (typeof source === 'object' && !Buffer.isBuffer(source)) source.on('error', failed);
    archive.append(source, entry);
    wanted++;
    await new Promise<void>((resolve) => {
      if (processed >= wanted || failure) return resolve();
      wake = resolve;
    });
  };
  try {
    await fill(add);
    if (failure) throw failure;
    await archive.finalize();
    await written;
  } catch (error) {
    archive.abort();
    throw error;
  }
}
