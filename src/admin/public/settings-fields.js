// The settings form's fields: labelled inputs registered by their settings path (e.g.
// "mapping.taxRateCodes"), so an error the server names by path is shown under its field. Code dropdowns
// list their codes in code order.
import { h } from './dom.js';
import { entriesByCode } from './format.js';
import { has, t } from './i18n.js';

/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Input */
/** @typedef {{ path: string, message: string }} Problem */

/** @param {string} path */
export const idFor = (path) => `field-${path.replace(/[^A-Za-z0-9]+/g, '-')}`;

/** The form's fields, by path. */
export function createFields() {
  /** @type {Map<string, { input: Input, error: HTMLElement }>} */
  const fields = new Map();

  /** @param {string} path @param {Input} input @param {string} [help] */
  function register(path, input, help) {
    const error = h('p', { class: 'field__error', id: `${idFor(path)}-error`, hidden: true });
    const helpEl = help ? h('p', { class: 'field__help', id: `${idFor(path)}-help` }, help) : null;
    input.id = idFor(path);
    input.name = path;
    if (helpEl) input.setAttribute('aria-describedby', helpEl.id);
    fields.set(path, { input, error });
    return { error, helpEl };
  }

  /** @param {string} path @param {string} label @param {Input} input @param {string} [help] */
  function labelled(path, label, input, help) {
    const { error, helpEl } = register(path, input, help);
    return h('div', { class: 'field' }, h('label', { class: 'field__label', for: idFor(path) }, label), input, error, helpEl);
  }

  /** A registered field's input; asking for an unregistered one is a mistake in this page. @param {string} path */
  function input(path) {
    const f = fields.get(path);
    if (!f) throw new Error(`no field ${path}`);
    return f.input;
  }

  /** @param {string} path @param {string | undefined} message */
  function showError(path, message) {
    const f = fields.get(path);
    if (!f) return false;
    f.error.textContent = message ?? '';
    f.error.hidden = !message;
    f.input.classList.toggle('input--error', Boolean(message));
    f.input.setAttribute('aria-invalid', message ? 'true' : 'false');
    if (message) f.input.setAttribute('aria-errormessage', f.error.id);
    return Boolean(message);
  }

  /** The field a server path belongs to: itself, or the closest registered parent (tables). @param {string} path */
  function fieldPathFor(path) {
    const parts = path.split('.');
    for (let n = parts.length; n > 0; n--) {
      const candidate = parts.slice(0, n).join('.');
      if (fields.has(candidate)) return candidate;
    }
    return undefined;
  }

  return {
    /**
     * @param {string} path @param {string} label @param {string | undefined} value
     * @param {{ type?: string, placeholder?: string, autocomplete?: string, maxlength?: number, help?: string, validate?: (v: string) => string | undefined }} [o]
     */
    text(path, label, value, o = {}) {
      const input = h('input', {
        class: 'input',
        type: o.type ?? 'text',
        value: value ?? '',
        placeholder: o.placeholder,
        autocomplete: o.autocomplete ?? 'off',
        maxlength: o.maxlength,
        spellcheck: 'false',
      });
      const validate = o.validate;
      if (validate) input.addEventListener('blur', () => showError(path, validate(input.value)));
      return labelled(path, label, input, o.help);
    },

    /**
     * A DGI code table as a dropdown, "01 · Meaning", in code order.
     * @param {string} path @param {string} label @param {string} value @param {Record<string, string>} table @param {string} tableName
     */
    select(path, label, value, table, tableName) {
      const options = entriesByCode(table).map(([code, meaning]) => {
        const key = `code.${tableName}.${code}`;
        return h('option', { value: code, selected: code === value }, `${code} · ${has(key) ? t(key) : meaning}`);
      });
      return labelled(path, label, h('select', { class: 'input select' }, options));
    },

    /** @param {string} path @param {string} label @param {[string, string][]} options @param {string} value @param {string} [help] */
    choice(path, label, options, value, help) {
      const select = h(
        'select',
        { class: 'input select' },
        options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
      );
      return labelled(path, label, select, help);
    },

    /** @param {string} path @param {string} label @param {boolean} checked */
    checkbox(path, label, checked) {
      const input = h('input', { type: 'checkbox', class: 'checkbox', checked });
      const { error } = register(path, input);
      return h('div', { class: 'field field--inline' }, input, h('label', { for: idFor(path) }, label), error);
    },

    /** "name = code" lines. @param {string} path @param {string} label @param {Record<string, string>} table @param {string} help */
    table(path, label, table, help) {
      const input = h('textarea', { class: 'input textarea', rows: Math.max(3, Object.keys(table).length + 1), spellcheck: 'false' });
      input.value = Object.entries(table)
        .map(([k, v]) => `${k} = ${v}`)
        .join('\n');
      input.addEventListener('blur', () => showError(path, parseTable(input.value).error));
      return labelled(path, label, input, help);
    },

    showError,
    fieldPathFor,
    input,
    /** @param {string} path */
    value: (path) => input(path).value,
    /** @param {string} path */
    checked: (path) => /** @type {HTMLInputElement} */ (input(path)).checked,
    clearErrors() {
      for (const path of fields.keys()) showError(path, undefined);
    },
    /**
     * Show each problem under its field; returns the ones with no field and focuses the first field shown.
     * @param {Problem[]} problems
     */
    placeProblems(problems) {
      /** @type {Input | undefined} */
      let first;
      /** @type {Problem[]} */
      const unplaced = [];
      for (const p of problems) {
        const path = fieldPathFor(p.path);
        // The server words each problem in the page's language (its Accept-Language).
        if (path && showError(path, p.message)) first ??= fields.get(path)?.input;
        else unplaced.push(p);
      }
      first?.focus();
      return unplaced;
    },
  };
}

/** @typedef {ReturnType<typeof createFields>} Fields */

/** "name = code" lines → { name: code }; blank lines are skipped. @param {string} text */
export function parseTable(text) {
  /** @type {Record<string, string>} */
  const table = {};
  const lines = String(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (!line) continue;
    const match = /^(.+?)\s*[=:]\s*(\S+)$/.exec(line);
    if (!match) return { table, error: t('settings.lineFormat', { line: i + 1 }) };
    table[(match[1] ?? '').trim()] = (match[2] ?? '').trim();
  }
  return { table, error: undefined };
}

/** @param {string} v */
export function validateBranch(v) {
  return /^[0-9A-Za-z]{4}$/.test(v.trim()) ? undefined : t('error.branchCode');
}

/** @param {string} v */
export function validateBillingPoint(v) {
  const s = v.trim();
  return /^\d{3}$/.test(s) && s !== '000' ? undefined : t('error.billingPoint');
}
