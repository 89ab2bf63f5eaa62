// The problems of the settings form (src/shops/shop-settings.ts) for the page, in the reader's language: in English
// the schema's own words (what the API and the CLI always said), in Spanish the catalogue's, chosen by the setting and
// by what is wrong with it, so that the Spanish page shows Spanish beside each field (docs/design.md §11).
import type { z } from 'zod';
import type { Language } from '../db/languages.ts';
import { render } from '../messages/catalogue.ts';
import { type Message, message } from '../messages/message.ts';
import { type SettingsProblem, settingsProblems } from '../shops/shop-settings.ts';

/** Settings whose every problem (but a choice outside a list) has one answer, by their dotted path. */
const BY_SETTING: readonly [RegExp, (at: string[]) => Message][] = [
  [/^credentials\.\w+$/, (at) => message('settings_credential_required', { field: at[1]! })],
  [/^(locations\.[^.]+\.)?branchCode$/, () => message('settings_branch_invalid')],
  [/^(locations\.[^.]+\.)?billingPoint$/, () => message('settings_point_invalid')],
  [/^locations\.[^.]+$/, (at) => message('settings_location_id_invalid', { id: at[1]! })],
  [/^accountantEmail$/, () => message('settings_email_invalid')],
  [/^buyerRequests\.days$/, () => message('settings_days_invalid', { min: 1, max: 365 })],
  [/^mapping\.defaultLocationCode$/, () => message('client_location_invalid')],
  [/^mapping\.customerTaxIdMetafield\.(namespace|key)$/, () => message('settings_metafield_part_missing')],
  [/^mapping\.taxRateCodes\.[^.]+$/, (at) => message('settings_tax_rate_invalid', { rate: at[2]! })],
];

function catalogued(issue: z.core.$ZodIssue, at: string[]): Message {
  const path = at.join('.');
  if (issue.code !== 'invalid_value') {
    const special = BY_SETTING.find(([pattern]) => pattern.test(path));
    if (special) return special[1](at);
  }
  switch (issue.code) {
    case 'invalid_value':
      return message('settings_choice_invalid', { options: issue.values.map(String).join(', ') });
    case 'too_small':
      return message('client_too_short', { min: Number(issue.minimum) });
    case 'too_big':
      return message('client_too_long', { max: Number(issue.maximum) });
    case 'invalid_type':
      if (issue.expected === 'boolean') return message('settings_not_boolean');
      if (issue.expected === 'number') return message('settings_not_number');
      if (issue.expected === 'string') return message('settings_not_text');
      return message('settings_value_invalid');
    case 'custom':
      if (path === 'mapping.transactionDefaults.typeDocument') return message('settings_type_not_sale');
      return message('settings_value_invalid');
    default:
      return message('settings_value_invalid');
  }
}

/** Each problem by the path of the setting it names, in `language`. */
export function settingsProblemsIn(error: z.ZodError, language: Language, prefix: readonly string[] = []): SettingsProblem[] {
  if (language === 'en') return settingsProblems(error, prefix);
  return error.issues.flatMap((issue) => {
    const at = [...prefix, ...issue.path.map(String)];
    const path = at.join('.') || 'settings';
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({
        path,
        message: render(message('settings_unknown_key', { key, where: at.join('.') }), language),
      }));
    return [{ path, message: render(catalogued(issue, at), language) }];
  });
}
