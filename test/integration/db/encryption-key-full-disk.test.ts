// The key file made at the first start, on a full disk (issue 25 item 9): start-up stops naming the file and the
// cause, and leaves no partial key that the next start would read as a broken one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/logger.ts';
import { resolveEncryptionKey } from '../../../src/shops/encryption-key.ts';

const logger = createLogger('silent', new Writable({ write: (_c, _e, done) => done() }));

describe('the encryption key file on a full disk', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the file and the cause, and leaves no partial key', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'factura-key-'));
    dirs.push(dataDir);
    const file = path.join(dataDir, 'encryption.key');
    const write = fs.writeFileSync;
    vi.spyOn(fs, 'writeFileSync').mockImplementation((target, ..._rest) => {
      write(target, '6f'); // a part written, then the disk is full
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    expect(() => resolveEncryptionKey(undefined, dataDir, logger)).toThrow(
      `could not make the encryption key file ${file}: ENOSPC: no space left on device, write. ` +
        'Check that the data directory is writable and its disk has free space (DATA_DIR), or set ENCRYPTION_KEY.',
    );
    expect(fs.existsSync(file)).toBe(false);
    vi.restoreAllMocks();
    expect(resolveEncryptionKey(undefined, dataDir, logger)).toHaveLength(32);
  });
});
