// Shopify Flow's `flowTriggerReceive(handle, payload)` (Admin GraphQL): the payload is checked against the trigger
// extension the app declares (flow-extensions.ts) as Shopify's trigger reference says: every declared field present
// and no other, each value of its field's type, a reference given as the object's numeric id (`order_id`), at most
// 50 KB. What it refuses is answered as userErrors; what it takes is kept per shop for a test to read back. The
// deprecated `body` argument is refused. A referenced order must be one of the shop's (stricter than documented:
// it catches a GID sent where the number belongs).
import type { FlowTriggerDefinition, FlowTriggerField } from './flow-extensions.ts';
import { type AdminContext, requireAccess } from './order-views.ts';

/** Added to the Admin schema (admin-schema.ts). */
export const FLOW_SDL = /* GraphQL */ `
  extend type Mutation {
    flowTriggerReceive(handle: String, payload: JSON, body: String): FlowTriggerReceivePayload
  }

  type UserError {
    field: [String!]
    message: String!
  }

  type FlowTriggerReceivePayload {
    userErrors: [UserError!]!
  }
`;

/** A trigger Shopify took. */
export interface ReceivedFlowTrigger {
  shop: string;
  handle: string;
  payload: Record<string, unknown>;
  at: string;
}

const MAX_PAYLOAD_BYTES = 50 * 1024;

interface UserError {
  field: string[] | null;
  message: string;
}

/** The root field, for adminRoot. */
export function flowRoot(ctx: AdminContext) {
  return {
    flowTriggerReceive(args: { handle?: string | null; payload?: unknown; body?: string | null }) {
      const errors = checkTrigger(ctx, args);
      if (errors.length > 0) {
        ctx.userErrors = true;
        return { userErrors: errors };
      }
      const payload = args.payload as Record<string, unknown>;
      ctx.state.flowTriggers.push({
        shop: ctx.shop.domain,
        handle: args.handle!,
        payload: structuredClone(payload),
        at: ctx.state.stamp(),
      });
      return { userErrors: [] };
    },
  };
}

function checkTrigger(ctx: AdminContext, args: { handle?: string | null; payload?: unknown; body?: string | null }): UserError[] {
  if (args.body != null) return [{ field: ['body'], message: 'body is deprecated: send handle and payload' }];
  const trigger = args.handle ? ctx.state.flowTriggerDefinitions.get(args.handle) : undefined;
  if (!trigger) return [{ field: ['handle'], message: `Trigger not found: no flow_trigger extension with handle "${args.handle ?? ''}"` }];
  // A reference needs the scope that reads its object (Shopify's trigger guide: a customer reference needs read_customers).
  for (const f of trigger.fields) if (f.type.endsWith('_reference')) requireAccess(ctx, 'flowTriggerReceive', scopeOf(f));
  const payload = args.payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return [{ field: ['payload'], message: 'payload must be a JSON object' }];
  const bytes = Buffer.byteLength(JSON.stringify(payload));
  if (bytes > MAX_PAYLOAD_BYTES) return [{ field: ['payload'], message: `payload is ${bytes} bytes; the limit is 50 KB` }];
  return payloadErrors(ctx, trigger, payload as Record<string, unknown>);
}

/** Each declared field present with a value of its type, and no key the extension does not declare. */
export function payloadErrors(
  ctx: Pick<AdminContext, 'shop'>,
  trigger: FlowTriggerDefinition,
  payload: Record<string, unknown>,
): UserError[] {
  const declared = new Set(trigger.fields.map((f) => f.key));
  const errors: UserError[] = Object.keys(payload)
    .filter((key) => !declared.has(key))
    .map((key) => ({ field: ['payload', key], message: `${key} is not a field of trigger ${trigger.handle}` }));
  for (const f of trigger.fields) {
    const problem = f.key in payload ? valueProblem(ctx, f, payload[f.key]) : 'is missing';
    if (problem) errors.push({ field: ['payload', f.key], message: `${f.key} ${problem}` });
  }
  return errors;
}

function valueProblem(ctx: Pick<AdminContext, 'shop'>, f: FlowTriggerField, value: unknown): string | undefined {
  switch (f.type) {
    case 'single_line_text_field':
      return typeof value === 'string' && !/[\r\n]/.test(value) ? undefined : 'must be one line of text';
    case 'email':
      return typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value) ? undefined : 'must be an e-mail address';
    case 'url':
      return typeof value === 'string' && isWebUrl(value) ? undefined : 'must be an http(s) URL';
    case 'number_decimal':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    default: {
      // A reference: the object's numeric id.
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) return 'must be the numeric id (not a GID)';
      if (f.type === 'order_reference' && !ctx.shop.orders.has(`gid://shopify/Order/${value}`))
        return `names no order of ${ctx.shop.domain}`;
      return undefined;
    }
  }
}

function isWebUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function scopeOf(f: FlowTriggerField): string {
  if (f.type === 'order_reference') return 'read_orders';
  if (f.type === 'product_reference') return 'read_products';
  return 'read_customers';
}
