// A shop's settings, validated as a whole. The same schema serves the admin page, its API and the CLI.
import { z } from 'zod';
import { mappingSettingsSchema } from '../../mappers/invoice/mapping-settings.ts';
import { LANGUAGES } from '../db/languages.ts';
import type { GatewayCredentials } from '../gateway/gateway-types.ts';

const required = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`);

/** The six gateway credentials (spec: credentials block). Stored encrypted, never shown back in full. */
export const credentialsInputSchema = z.object({
  GW_Company: required('GW_Company (platform user)'),
  GW_Token: required('GW_Token (platform password)'),
  Id_Pac: required('Id_Pac (certification provider id)'),
  Enterprise: required('Enterprise (enterprise code)'),
  Company: required('Company (taxpayer user at the provider)'),
  Token: required('Token (taxpayer password at the provider)'),
});

/** A branch (sucursal) code: `codeBranchIssuer`. */
export const branchCodeSchema = z.string().regex(/^[0-9A-Za-z]{4}$/, 'branchCode must be 4 letters or digits ("0000" is the head office)');
/** A billing point (punto de facturación): `pointBillingFiscal`. */
export const billingPointSchema = z
  .string()
  .regex(/^\d{3}$/, 'billingPoint must be 3 digits')
  .refine((v) => v !== '000', 'billingPoint 000 is not allowed');
/** Whether buyers may ask, and for how many days after the invoice (its authorization, or its order when not yet). */
export const buyerRequestsSchema = z.strictObject({
  enabled: z.boolean({ error: 'buyerRequests.enabled must be true or false' }).default(true),
  days: z
    .number({ error: 'buyerRequests.days must be a number of days' })
    .int('buyerRequests.days must be a whole number of days')
    .min(1, 'buyerRequests.days must be at least 1')
    .max(365, 'buyerRequests.days must be at most 365')
    .default(30),
});
export type BuyerRequestSettings = z.infer<typeof buyerRequestsSchema>;
/**
 * Shopify Flow triggers (docs/flow.md): fired for each document when on (one Admin API call per document and event),
 * their reasons written in `language`.
 */
export const flowTriggersSchema = z.strictObject({
  enabled: z.boolean({ error: 'flowTriggers.enabled must be true or false' }).default(true),
  language: z.enum(LANGUAGES, { error: 'flowTriggers.language must be "es" or "en"' }).default('es'),
});
export type FlowTriggerSettings = z.infer<typeof flowTriggersSchema>;

export const shopSettingsSchema = z.strictObject({
  /** Where invoices go: the DGI's test environment or production. */
  environment: z.enum(['pruebas', 'produccion'], { error: 'environment must be "pruebas" or "produccion"' }).default('pruebas'),
  branchCode: branchCodeSchema.default('0000'),
  billingPoint: billingPointSchema.default('001'),
  /**
   * Shopify locations issued from their own branch and billing point (docs/series.md): a location id (the number in
   * the order's `location_id`, as text) → `{ branchCode, billingPoint }`. Orders from other locations, and orders
   * without one, are issued from `branchCode`/`billingPoint` above.
   */
  locations: z
    .record(
      z.string().regex(/^[1-9]\d{0,19}$/, 'locations: each key must be a Shopify location id (its number, as text)'),
      z.object({ branchCode: branchCodeSchema, billingPoint: billingPointSchema }).strict(),
      { error: 'locations must be an object from a Shopify location id to { "branchCode", "billingPoint" }' },
    )
    .default({}),
  /** The accountant's address: the month's sales book is e-mailed there on the 1st (docs/reports.md). Blank: none. */
  accountantEmail: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v),
    z.email({ error: 'accountantEmail must be an e-mail address, e.g. contador@example.com' }).optional(),
  ),
  /** How orders become documents: coded defaults, payment forms, checkout attribute names, … */
  mapping: mappingSettingsSchema.default(mappingSettingsSchema.parse({})),
  /** Buyers ask for their invoice in their company's name from their page (docs/buyer-page.md). */
  buyerRequests: buyerRequestsSchema.default(buyerRequestsSchema.parse({})),
  /** Shopify Flow triggers fired for the shop's documents, and the language of their texts (docs/flow.md). */
  flowTriggers: flowTriggersSchema.default(flowTriggersSchema.parse({})),
});
export type ShopSettings = z.infer<typeof shopSettingsSchema>;

/** The settings file of `shops configure` and the body of the settings API: settings plus credentials. */
export const settingsInputSchema = shopSettingsSchema.extend({
  credentials: credentialsInputSchema.optional(),
  enabled: z.boolean().optional(),
});
export type SettingsInput = z.infer<typeof settingsInputSchema>;

export const defaultShopSettings: ShopSettings = shopSettingsSchema.parse({});

/** Credentials as shown back to a person: which are set, never their values. */
export function maskCredentials(c: GatewayCredentials | undefined): Record<keyof GatewayCredentials, boolean> | undefined {
  if (!c) return undefined;
  return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.length > 0])) as Record<keyof GatewayCredentials, boolean>;
}

/** One problem of a settings file or form: the setting's dotted path and what is wrong with it. */
export interface SettingsProblem {
  path: string;
  message: string;
}

/** Each problem by the path of the setting it names: an unknown key is named by its own full path. */
export function settingsProblems(error: z.ZodError, prefix: readonly string[] = []): SettingsProblem[] {
  return error.issues.flatMap((i) => {
    const at = [...prefix, ...i.path.map(String)];
    if (i.code === 'unrecognized_keys')
      return i.keys.map((key) => ({
        path: at.join('.') || 'settings',
        message: `"${key}" is not a setting${at.length ? ` of ${at.join('.')}` : ''}: check its spelling (docs/merchants.md lists every setting)`,
      }));
    return [{ path: at.join('.') || 'settings', message: i.message }];
  });
}

/** "environment: must be …" lines, one per problem, for a person. */
export function describeIssues(error: z.ZodError): string[] {
  return settingsProblems(error).map((p) => `${p.path}: ${p.message}`);
}
