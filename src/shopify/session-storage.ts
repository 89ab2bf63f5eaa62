// Shopify sessions in our database, in the drizzle session-storage shape, with the access and refresh
// tokens sealed (AES-256-GCM): a copy of the database alone gives no access to any store.
import { Session } from '@shopify/shopify-api';
import type { SessionStorage } from '@shopify/shopify-app-session-storage';
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../db/database.ts';
import { sessions } from '../db/schema.ts';
import type { SecretBox } from '../shops/secret-box.ts';

type SessionRow = typeof sessions.$inferSelect;

export class EncryptedSessionStorage implements SessionStorage {
  private readonly db: Db | Tx;
  private readonly box: SecretBox;
  private readonly cacheMs: number;
  /** Sessions read within `cacheMs`: every Admin API call needs one, a few per document. */
  private readonly recent = new Map<string, { session: Session; readAt: number }>();
  /** Counts this storage's writes: a read that a write overtook is not remembered (it may be the old session). */
  private writes = 0;

  /**
   * `cacheMs`: how long a session read is used again without reading it (0: never). This storage's own writes forget
   * it at once; another process's show within that time, or at the first 401 (`forget`).
   */
  constructor(db: Db | Tx, box: SecretBox, o: { cacheMs?: number } = {}) {
    this.db = db;
    this.box = box;
    this.cacheMs = o.cacheMs ?? 0;
  }

  /** Read the session again on its next use (the Admin API refused its token, or it was refreshed). */
  forget(id: string): void {
    this.recent.delete(id);
  }

  /** A write, with what was read before it forgotten on both sides of it: no read it overtook is used again. */
  private async writing<T>(write: () => Promise<T>): Promise<T> {
    const forgetAll = () => {
      this.writes++;
      this.recent.clear();
    };
    forgetAll();
    try {
      return await write();
    } finally {
      forgetAll();
    }
  }

  get secretBox(): SecretBox {
    return this.box;
  }

  async storeSession(session: Session): Promise<boolean> {
    const row = this.toRow(session);
    const { id: _id, ...update } = row;
    await this.writing(() => this.db.insert(sessions).values(row).onConflictDoUpdate({ target: sessions.id, set: update }));
    return true;
  }

  // Database errors propagate: "not found" and "database down" must not look the same.
  async loadSession(id: string): Promise<Session | undefined> {
    const cached = this.recent.get(id);
    if (cached && performance.now() - cached.readAt < this.cacheMs) return cached.session;
    const writesBefore = this.writes;
    const [row] = await this.db.select().from(sessions).where(eq(sessions.id, id));
    const session = row ? this.toSession(row) : undefined;
    if (session && this.cacheMs > 0 && this.writes === writesBefore) this.recent.set(id, { session, readAt: performance.now() });
    return session;
  }

  async deleteSession(id: string): Promise<boolean> {
    await this.writing(() => this.db.delete(sessions).where(eq(sessions.id, id)));
    return true;
  }

  async deleteSessions(ids: string[]): Promise<boolean> {
    if (ids.length > 0) await this.writing(() => this.db.delete(sessions).where(inArray(sessions.id, ids)));
    return true;
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    const rows = await this.db.select().from(sessions).where(eq(sessions.shop, shop));
    return rows.map((r) => this.toSession(r));
  }

  async deleteShopSessions(shop: string): Promise<number> {
    const rows = await this.writing(() => this.db.delete(sessions).where(eq(sessions.shop, shop)).returning({ id: sessions.id }));
    return rows.length;
  }

  private toRow(session: Session): typeof sessions.$inferInsert {
    const user = session.onlineAccessInfo?.associated_user;
    return {
      id: session.id,
      shop: session.shop,
      state: session.state,
      isOnline: session.isOnline,
      scope: session.scope ?? null,
      expires: session.expires ?? null,
      accessTokenEnc: this.box.seal(session.accessToken ?? ''),
      refreshTokenEnc: session.refreshToken ? this.box.seal(session.refreshToken) : null,
      refreshTokenExpires: session.refreshTokenExpires ?? null,
      userId: user?.id ?? null,
      firstName: user?.first_name ?? null,
      lastName: user?.last_name ?? null,
      email: user?.email ?? null,
      accountOwner: user?.account_owner ?? null,
      locale: user?.locale ?? null,
      collaborator: user?.collaborator ?? null,
      emailVerified: user?.email_verified ?? null,
    };
  }

  private toSession(row: SessionRow): Session {
    const accessToken = this.box.open(row.accessTokenEnc);
    return new Session({
      id: row.id,
      shop: row.shop,
      state: row.state,
      isOnline: row.isOnline,
      ...(row.scope ? { scope: row.scope } : {}),
      ...(row.expires ? { expires: row.expires } : {}),
      ...(accessToken ? { accessToken } : {}),
      ...(row.refreshTokenEnc ? { refreshToken: this.box.open(row.refreshTokenEnc) } : {}),
      ...(row.refreshTokenExpires ? { refreshTokenExpires: row.refreshTokenExpires } : {}),
    });
  }
}
