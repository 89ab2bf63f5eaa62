// The Flow trigger outbox's events and states (docs/flow.md), declared once: the table's checks, the store's
// statements and the runner take their lists from here (a change to a list is a migration).

/** One event per document at most: what happened to it, each the trigger of one Flow extension (extensions/flow-*). */
export const FLOW_EVENTS = ['invoice_authorized', 'invoice_needs_attention', 'credit_note_authorized'] as const;
export type FlowEvent = (typeof FLOW_EVENTS)[number];

/** pending: the Flow runner sends it when due. sent: Shopify took it. failed: given up (userErrors, or attempts used up). */
export const FLOW_STATUSES = ['pending', 'sent', 'failed'] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];
