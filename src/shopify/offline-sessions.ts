// Offline sessions ready to use: expiring access tokens are refreshed shortly before they run out,
// once per shop at a time — in this process (a shared promise) and across processes (a row lock).
import type { Session, Shopify } from '@shopify/shopify-api';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { sessions } from '../db/schema.ts';
import type { OfflineSessions } from './admin-client.ts';
import { EncryptedSessionStorage } from './session-storage.ts';

/** Refresh when less than this remains: a call started now must not meet an expired token. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export function createOfflineSessions(o: { shopify: Shopify; db: Db; storage: EncryptedSessionStorage }): OfflineSessions {
  const running = new Map<string, Promise<Session | undefined>>();

  async function refreshUnderLock(id: string, shop: string): Promise<Session | undefined> {
    return o.db.transaction(async (tx) => {
      // Whoever holds this lock refreshes; the others wait, then read the new token.
      await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, id)).for('update');
      const storage = new EncryptedSessionStorage(tx, o.storage.secretBox);
      const current = await storage.loadSession(id);
      if (!current?.refreshToken || !current.isExpired(REFRESH_MARGIN_MS)) return current;
      const { session } = await o.shopify.auth.refreshToken({ shop, refreshToken: current.refreshToken });
      await storage.storeSession(session);
      return session;
    });
  }

  return {
    async get(shop) {
      const id = o.shopify.session.getOfflineId(shop);
      const session = await o.storage.loadSession(id);
      if (!session) return undefined;
      if (!session.expires || !session.refreshToken || !session.isExpired(REFRESH_MARGIN_MS)) return session;
      let pending = running.get(shop);
      if (!pending) {
        // Read under the lock: the refreshed session (here or by another process) replaces the one remembered.
        pending = refreshUnderLock(id, shop).finally(() => {
          o.storage.forget(id);
          running.delete(shop);
        });
        running.set(shop, pending);
      }
      return pending;
    },
    async invalidate(shop) {
      o.storage.forget(o.shopify.session.getOfflineId(shop));
    },
  };
}
