// The key that seals credentials and tokens. Production must configure ENCRYPTION_KEY (checked at start-up);
// elsewhere a key file is made once in the data directory, with a warning.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import { PRIVATE_FILE_MODE, privateDirectory } from '../private-files.ts';

export function resolveEncryptionKey(configured: Buffer | undefined, dataDir: string, logger: Logger): Buffer {
  if (configured) return configured;
  privateDirectory(dataDir);
  const file = path.join(dataDir, 'encryption.key');
  if (fs.existsSync(file)) {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte hex key`);
    logger.warn({ file }, 'ENCRYPTION_KEY is not set: using the key file in the data directory (set ENCRYPTION_KEY in production)');
    return key;
  }
  const key = randomBytes(32);
  try {
    fs.writeFileSync(file, key.toString('hex') + '\n', { mode: PRIVATE_FILE_MODE });
  } catch (error) {
    // A part written on a full disk would be read at the next start as a broken key: leave none.
    fs.rmSync(file, { force: true });
    throw new Error(
      `could not make the encryption key file ${file}: ${(error as Error).message}. ` +
        'Check that the data directory is writable and its disk has free space (DATA_DIR), or set ENCRYPTION_KEY.',
      { cause: error },
    );
  }
  logger.warn({ file }, 'ENCRYPTION_KEY is not set: made a new key file in the data directory (set ENCRYPTION_KEY in production)');
  return key;
}
