// The Admin API client of a process that is not the app (the CLI's backfill): the same library set-up and client as
// src/app.ts builds, from the configuration's Shopify credentials.
import '@shopify/shopify-api/adapters/node';
import { ApiVersion, LogSeverity, shopifyApi } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import type { AppConfig } from '../config/env.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { rewritingFetch } from './admin-api-origin.ts';
import { createShopifyAdmin, type ShopifyAdmin } from './admin-client.ts';
import { createOfflineSessions } from './offline-sessions.ts';
import type { EncryptedSessionStorage } from './session-storage.ts';

/** The app's Admin API version (src/app.ts SHOPIFY_API_VERSION). */
const API_VERSION = ApiVersion.October26;

export function adminForConfig(
  shopify: NonNullable<AppConfig['shopify']>,
  o: { config: AppConfig; db: Db; sessions: EncryptedSessionStorage; logger: Logger },
): ShopifyAdmin {
  if (shopify.adminApiOrigin) setAbstractFetchFunc(rewritingFetch(shopify.adminApiOrigin, globalThis.fetch));
  const appUrl = new URL(shopify.appUrl);
  const api = shopifyApi({
    apiKey: shopify.apiKey,
    apiSecretKey: shopify.apiSecret,
    hostName: appUrl.host,
    hostScheme: appUrl.protocol === 'http:' ? 'http' : 'https',
    apiVersion: API_VERSION,
    isEmbeddedApp: true,
    scopes: shopify.scopes,
    logger: { level: LogSeverity.Error, log: async (_severity, text) => o.logger.error({ source: 'shopify-api' }, text) },
  });
  return createShopifyAdmin({
    sessions: createOfflineSessions({ shopify: api, db: o.db, storage: o.sessions }),
    apiVersion: API_VERSION,
    logger: o.logger,
    timeoutMs: o.config.shopifyAdmin.timeoutMs,
    maxAnswerBytes: o.config.shopifyAdmin.maxAnswerBytes,
  });
}
