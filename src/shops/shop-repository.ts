// Shops: settings (validated), gateway credentials (encrypted at rest), enabled and paused state.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { shops } from '../db/schema.ts';
import type { GatewayCredentials } from '../gateway/gateway-types.ts';
import { type Message, asMessage } from '../messages/message.ts';
import type { SecretBox } from './secret-box.ts';
import { type SettingsInput, type ShopSettings, credentialsInputSchema, defaultShopSettings, shopSettingsSchema } from './shop-settings.ts';

export interface Shop {
  shop: string;
  enabled: boolean;
  installed: boolean;
  /** Why the gateway refused the shop's credentials (a catalogue message), while its queue waits. */
  pausedReason: Message | null;
  settings: ShopSettings;
  credentials: GatewayCredentials | undefined;
  settingsVersion: number;
}

export interface ShopIntakeStatus {
  installed: boolean;
  enabled: boolean;
}

/** How long the webhook intake may trust a shop's installed/enabled flags read by this process. */
const STATUS_TTL_MS = 1_000;

export class ShopRepository {
  private readonly db: Db;
  private readonly box: SecretBox;
  private readonly statusCache = new Map<string, { status: ShopIntakeStatus | undefined; at: number }>();

  constructor(db: Db, box: SecretBox) {
    this.db = db;
    this.box = box;
  }

  async get(shop: string): Promise<Shop | undefined> {
    const [row] = await this.db.select().from(shops).where(eq(shops.shop, shop));
    if (!row) return undefined;
    const settings = shopSettingsSchema.safeParse(row.settings);
    return {
      shop: row.shop,
      enabled: row.enabled,
      installed: row.installed,
      pausedReason: asMessage(row.pausedReason) ?? null,
      // Stored settings were valid when saved; a schema change falls back to defaults rather than crash.
      settings: settings.success ? settings.data : defaultShopSettings,
      credentials: row.credentialsEnc ? credentialsInputSchema.parse(JSON.parse(this.box.open(row.credentialsEnc))) : undefined,
      settingsVersion: row.settingsVersion,
    };
  }

  /**
   * Installed and enabled, for the webhook intake: no decryption, and cached for a second, because a flash
   * sale sends thousands of deliveries a second. Changes made through this repository apply at once.
   */
  async intakeStatus(shop: string): Promise<ShopIntakeStatus | undefined> {
    const cached = this.statusCache.get(shop);
    if (cached && Date.now() - cached.at < STATUS_TTL_MS) return cached.status;
    const [row] = await this.db.select({ installed: shops.installed, enabled: shops.enabled }).from(shops).where(eq(shops.shop, shop));
    this.statusCache.set(shop, { status: row, at: Date.now() });
    return row;
  }

  async list(): Promise<{ shop: string; enabled: boolean; installed: boolean; pausedReason: Message | null; environment: string }[]> {
    const rows = await this.db.select().from(shops).orderBy(shops.shop);
    return rows.map((r) => ({
      shop: r.shop,
      enabled: r.enabled,
      installed: r.installed,
      pausedReason: asMessage(r.pausedReason) ?? null,
      environment: shopSettingsSchema.safeParse(r.settings).data?.environment ?? 'pruebas',
    }));
  }

  /** First install (or reinstall): a settings row, disabled until the merchant completes the settings. */
  async ensureInstalled(shop: string): Promise<void> {
    await this.db
      .insert(shops)
      .values({ shop, settings: defaultShopSettings, enabled: false, installed: true })
      .onConflictDoUpdate({ target: shops.shop, set: { installed: true, uninstalledAt: null, updatedAt: sql`now()` } });
    this.statusCache.delete(shop);
  }

  /**
   * Save validated settings. New credentials replace the stored ones; saving lifts a credentials pause,
   * so waiting invoices continue. Enabling needs credentials.
   */
  async saveSettings(shop: string, input: SettingsInput): Promise<{ ok: true } | { ok: false; problems: string[] }> {
    const current = await this.get(shop);
    if (!current) return { ok: false, problems: [`shop ${shop} is not installed`] };
    const credentials = input.credentials ?? current.credentials;
    const enabled = input.enabled ?? current.enabled;
    if (enabled && !credentials)
      return { ok: false, problems: ['enabled: the gateway credentials must be set before invoicing can be enabled'] };
    const { credentials: _c, enabled: _e, ...settings } = input;
    await this.db
      .update(shops)
      .set({
        settings: shopSettingsSchema.parse(settings),
        credentialsEnc: credentials ? this.box.seal(JSON.stringify(credentials)) : null,
        enabled,
        pausedReason: null,
        settingsVersion: sql`${shops.settingsVersion} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(shops.shop, shop));
    this.statusCache.delete(shop);
    return { ok: true };
  }

  async setEnabled(shop: string, enabled: boolean): Promise<{ ok: true } | { ok: false; problems: string[] }> {
    const current = await this.get(shop);
    if (!current) return { ok: false, problems: [`shop ${shop} is not installed`] };
    if (enabled && !current.credentials)
      return { ok: false, problems: ['enabled: the gateway credentials must be set before invoicing can be enabled'] };
    await this.db
      .update(shops)
      .set({ enabled, updatedAt: sql`now()` })
      .where(eq(shops.shop, shop));
    this.statusCache.delete(shop);
    return { ok: true };
  }

  /** 101 from the gateway: hold the shop's queue until its settings change. */
  async pause(shop: string, reason: Message): Promise<void> {
    await this.db
      .update(shops)
      .set({ pausedReason: reason, updatedAt: sql`now()` })
      .where(eq(shops.shop, shop));
  }

  async markUninstalled(shop: string): Promise<void> {
    await this.db
      .update(shops)
      .set({ installed: false, enabled: false, uninstalledAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(shops.shop, shop));
    this.statusCache.delete(shop);
  }
}
