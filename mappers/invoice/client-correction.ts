// The merchant's correction of a document's client block (docs/design.md §10): a registered taxpayer with a RUC whose check
// digit is right, or a final consumer. Validated whole before it is saved; the mapper applies it over the order.
import { z } from 'zod';
import { findLocationByCode } from '../fiscal/panama-locations.ts';
import { isValidRucCheckDigit, normalizeRuc } from '../fiscal/ruc-check-digit.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const text = (what: string, min: number, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(min, `${what} must have at least ${min} characters`)
    .max(max, `${what} must have at most ${max} characters`);

const locationCode = z
  .string({ error: 'locationCode must be text' })
  .trim()
  .refine((code) => findLocationByCode(code) !== undefined, {
    message: 'locationCode is not a province-district-corregimiento code of the DGI catalogue',
    params: { key: 'client_location_invalid' },
  });

const email = z
  .string({ error: 'email must be text' })
  .trim()
  .max(100, 'email must have at most 100 characters')
  .regex(EMAIL, 'email is not an e-mail address');

const taxpayerSchema = z.strictObject({
  type: z.literal('taxpayer'),
  ruc: z
    .string({ error: 'ruc must be text' })
    .trim()
    .transform((v, ctx) => {
      const ruc = normalizeRuc(v);
      if (ruc === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `"${v}" is not a RUC or cédula number (e.g. 155596713-2-2015 or 8-442-445)`,
          params: { key: 'client_ruc_unreadable', text: v },
        });
        return z.NEVER;
      }
      return ruc;
    }),
  dv: z
    .string({ error: 'dv must be text' })
    .trim()
    .regex(/^\d{1,2}$/, 'dv must be the one or two digits of the check digit')
    .transform((v) => v.padStart(2, '0')),
  name: text('name', 1, 100),
  address: text('address', 5, 100),
  locationCode,
  email: email.optional(),
});

const finalConsumerSchema = z.strictObject({
  type: z.literal('final_consumer'),
  name: text('name', 2, 100).optional(),
  address: text('address', 5, 100).optional(),
  locationCode: locationCode.optional(),
  email: email.optional(),
});

export const clientCorrectionSchema = z
  .discriminatedUnion('type', [taxpayerSchema, finalConsumerSchema], {
    error: 'type must be "taxpayer" or "final_consumer"',
  })
  .superRefine((c, ctx) => {
    if (c.type === 'taxpayer' && !isValidRucCheckDigit(c.ruc, c.dv)) {
      ctx.addIssue({
        code: 'custom',
        path: ['dv'],
        message: `the check digit ${c.dv} does not belong to the RUC ${c.ruc}`,
        params: { key: 'client_dv_invalid', dv: c.dv, ruc: c.ruc },
      });
    }
  });

export type ClientCorrection = z.infer<typeof clientCorrectionSchema>;

/** A stored correction read back (it was valid when saved); undefined when there is none or it no longer reads. */
export function storedCorrection(value: unknown): ClientCorrection | undefined {
  if (value === null || value === undefined) return undefined;
  const parsed = clientCorrectionSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
