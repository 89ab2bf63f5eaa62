// The start-up message for an embedded database that cannot be opened: PGlite's bare errnos (a full disk is
// `ErrnoError { errno: 51 }`), Node's errors and its "Aborted()" become the directory and the cause in words.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { dataDirFailure, errnoName } from '../../../src/db/data-dir-failure.ts';

const errnoError = (errno: number) => ({ name: 'ErrnoError', errno });
const DIR = `${os.tmpdir()}/no-such-dir/data/pglite`;

describe('data directory failures', () => {
  it('names the errno of PGlite’s file system and of Node', () => {
    expect([51, 69, 2, 54, 19, 999].map((n) => errnoName(errnoError(n)))).toEqual([
      'ENOSPC',
      'EROFS',
      'EACCES',
      'ENOTDIR',
      'EDQUOT',
      'errno 999',
    ]);
    expect(errnoName(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toBe('ENOSPC');
    expect(errnoName(new Error('Aborted()'))).toBeUndefined();
  });

  it('says a full disk in words, with the directory and the free space of its disk', () => {
    const error = dataDirFailure(DIR, errnoError(51));
    expect(error.message).toMatch(
      new RegExp(
        `^the embedded database in ${DIR} could not be opened: no space left on the device \\(ENOSPC\\); the disk holding it has \\d+ KiB free\\. `,
      ),
    );
    expect(error.cause).toEqual(errnoError(51));
  });

  it('keeps the message of an error without a code, such as PGlite’s abort', () => {
    expect(dataDirFailure(DIR, new Error('Aborted()')).message).toMatch(
      new RegExp(`^the embedded database in ${DIR} could not be opened: Aborted\\(\\); `),
    );
  });
});
