// Why the embedded database's directory could not be opened, in words: PGlite's own file system answers with a bare
// errno (`ErrnoError { errno: 51 }`) or aborts ("Aborted()"), which told an operator starting on a full disk nothing.
import fs from 'node:fs';
import path from 'node:path';

/** The errno numbers of PGlite's (Emscripten's, WASI's) file system that a data directory can meet. */
const WASI_ERRNO: Record<number, string> = {
  2: 'EACCES',
  19: 'EDQUOT',
  29: 'EIO',
  44: 'ENOENT',
  51: 'ENOSPC',
  54: 'ENOTDIR',
  63: 'EPERM',
  69: 'EROFS',
};

const CAUSES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a file stands where a directory is needed',
  ENOENT: 'a file or directory is missing',
  EIO: 'an input/output error',
};

/** The error code of a Node error ('ENOSPC') or of PGlite's file system (errno 51 → 'ENOSPC'). */
export function errnoName(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, errno, name } = error as { code?: unknown; errno?: unknown; name?: unknown };
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  if (name === 'ErrnoError' && typeof errno === 'number') return WASI_ERRNO[errno] ?? `errno ${errno}`;
  return undefined;
}

/** The free space of the disk that holds `dir` (or its nearest existing parent), as text; empty when unknown. */
function freeSpace(dir: string): string {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    try {
      const stats = fs.statfsSync(at);
      return `; the disk holding it has ${Math.floor((stats.bavail * stats.bsize) / 1024)} KiB free`;
    } catch {
      if (at === path.dirname(at)) return '';
    }
  }
}

/** The start-up error for an embedded database that could not be opened in `dataDir`: the directory and the cause. */
export function dataDirFailure(dataDir: string, error: unknown): Error {
  const code = errnoName(error);
  const message = error instanceof Error ? error.message : '';
  const cause = code ? `${CAUSES[code] ?? 'a file system error'} (${code})` : message || String(error);
  return new Error(
    `the embedded database in ${dataDir} could not be opened: ${cause}${freeSpace(dataDir)}. ` +
      'Check that the directory is writable and its disk has free space (DATA_DIR), or use PostgreSQL (DATABASE_URL).',
    { cause: error },
  );
}
