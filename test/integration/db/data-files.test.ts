// The data directory is the app's user's alone: the embedded database's files, the key file and the lock
// (issue 14 item 4: PGlite's initdb left 968 of 1,042 files mode 0666). Checked under the usual umask
// (022) and with a DATA_DIR that someone made 0755 beforehand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/database.ts';
import { silentLogger } from '../../../src/logger.ts';
import { resolveEncryptionKey } from '../../../src/shops/encryption-key.ts';
import { entryCount, openToOthers } from '../../support/file-modes.ts';
import { startHarness, waitFor } from '../../../sim/harness/harness.ts';
import { makePaidOrder } from '../../support/order-factory.ts';

describe('the data directory', () => {
  it('is private after start-up and after invoicing: directories 0700, files 0600', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fe-modes-'));
    fs.chmodSync(dataDir, 0o755);
    try {
      resolveEncryptionKey(undefined, dataDir, silentLogger);
      const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      expect(fs.existsSync(path.join(dataDir, 'pglite.lock'))).toBe(true);
      expect(openToOthers(dataDir)).toEqual([]);
      expect(entryCount(dataDir)).toBeGreaterThan(1000);

      const h = await startHarness({ database });
      try {
        const shop = 'tienda-modos.myshopify.com';
        await h.installShop(shop);
        const ids = Array.from({ length: 20 }, (_, i) => 7_650_000_000_000 + i);
        for (const id of ids) expect((await h.simulator.orderPaid(shop, makePaidOrder({ id }), h.webhookAddress)).status).toBe(200);
        await waitFor(
          async () => ids.every((id) => h.simulator.metafields(`gid://shopify/Order/${id}`, shop).length >= 5),
          30_000,
          'invoices written back',
        );
      } finally {
        await h.close();
        await database.close();
      }
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
