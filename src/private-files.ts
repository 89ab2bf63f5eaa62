// The data directory holds the embedded database, the key file and the lock: the app's user alone may
// read or list any of it (directories 0700, files 0600), whatever the process's umask.
import fs from 'node:fs';

export const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIR_MODE = 0o700;

/** Create `dir` (and missing parents) private, or make an existing one private. */
export function privateDirectory(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** A mode with the group's and others' bits cleared. */
export function ownerOnly(mode: number): number {
  return mode & ~0o077;
}
