// The app's Flow trigger extensions as Shopify knows them once deployed: each `extensions/*/shopify.extension.toml` of
// type flow_trigger, read with the rules of Shopify's trigger reference (handle: letters, digits and hyphens, at most
// 30; a custom field's key: letters and spaces; the field types a trigger may declare). An oracle: what the app sends
// is checked against what the app declares, so a renamed key or a wrong type fails a test instead of agreeing.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';

/** The commerce objects a trigger may reference; each is given in the payload as `<object>_id`. */
const REFERENCES = ['customer_reference', 'order_reference', 'product_reference', 'company_reference', 'company_contact_reference'];
/** The custom field types a trigger may declare. */
const CUSTOM_TYPES = ['boolean', 'email', 'single_line_text_field', 'url', 'number_decimal'];

/** What an extension's toml holds, as far as a trigger goes (Shopify's CLI refuses the rest). */
interface ExtensionToml {
  extensions?: Record<string, string | undefined>[];
  settings?: { fields?: Record<string, string | undefined>[] };
}

export interface FlowTriggerField {
  type: string;
  /** The payload's key: the custom field's key, or `<object>_id` for a reference. */
  key: string;
}

export interface FlowTriggerDefinition {
  handle: string;
  name: string;
  fields: FlowTriggerField[];
}

/** Every flow_trigger extension under `dir`, by handle. A malformed one throws, naming its file. */
export function loadFlowTriggers(dir: string): Map<string, FlowTriggerDefinition> {
  const found = new Map<string, FlowTriggerDefinition>();
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name, 'shopify.extension.toml');
    if (!entry.isDirectory() || !fs.existsSync(file)) continue;
    const toml = parse(fs.readFileSync(file, 'utf8')) as ExtensionToml;
    const extension = toml.extensions?.[0];
    if (extension?.type !== 'flow_trigger') continue;
    const definition = triggerOf(extension, toml.settings?.fields ?? [], file);
    found.set(definition.handle, definition);
  }
  return found;
}

function triggerOf(
  extension: Record<string, string | undefined>,
  rawFields: Record<string, string | undefined>[],
  file: string,
): FlowTriggerDefinition {
  const { handle, name } = extension;
  if (!handle || !/^[A-Za-z0-9-]{1,30}$/.test(handle)) throw new Error(`${file}: handle must be 1–30 letters, digits or hyphens`);
  if (!name) throw new Error(`${file}: name is required`);
  const fields = rawFields.map((f): FlowTriggerField => {
    const type = f['type'] ?? '';
    if (REFERENCES.includes(type)) return { type, key: `${type.replace(/_reference$/, '')}_id` };
    if (!CUSTOM_TYPES.includes(type)) throw new Error(`${file}: field type ${type} is not supported on Flow triggers`);
    const key = f['key'];
    if (!key || !/^[a-zA-Z\s]*$/.test(key)) throw new Error(`${file}: field key "${key ?? ''}" must be letters and spaces`);
    return { type, key };
  });
  return { handle, name, fields };
}
