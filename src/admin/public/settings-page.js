// Configuración: the shop's settings as one form (the server validates it with the same schema the CLI
// uses and names each field it refuses, shown inline), "test connection", and the invoicing switch.
import { ApiError, api } from './api.js';
import { banner, busy, button, clear, h, toast } from './dom.js';
import { has, t } from './i18n.js';

const CREDENTIALS = ['GW_Company', 'GW_Token', 'Id_Pac', 'Enterprise', 'Company', 'Token'];
const SECRET_CREDENTIALS = new Set(['GW_Token', 'Token']);
const TRANSACTION_DEFAULTS = [
  'typeEmission',
  'typeDocument',
  'natureOperation',
  'typeOperation',
  'destinationOperation',
  'formatCAFE',
  'deliveryCAFE',
  'shippingContainer',
  'processGeneration',
  'typeSale',
];
const ATTRIBUTES = ['ruc', 'dv', 'businessName', 'address', 'locationCode'];
/** Error texts the dictionary words better than the server (which writes English for the CLI too). */
const ERROR_TEXT = {
  branchCode: 'error.branchCode',
  billingPoint: 'error.billingPoint',
  'mapping.defaultLocationCode': 'error.defaultLocationCode',
};

const idFor = (path) => `field-${path.replace(/[^A-Za-z0-9]+/g, '-')}`;

export async function renderSettings(container, ctx) {
  let shop = ctx.shop;
  const settings = shop.settings;
  const mapping = settings.mapping;
  /** path → { input, error } */
  const fields = new Map();

  // ── field builders ──────────────────────────────────────────────────────────────

  function register(path, input, help) {
    const error = h('p', { class: 'field__error', id: `${idFor(path)}-error`, hidden: true });
    const helpEl = help ? h('p', { class: 'field__help', id: `${idFor(path)}-help` }, help) : null;
    input.id = idFor(path);
    input.name = path;
    if (helpEl) input.setAttribute('aria-describedby', helpEl.id);
    fields.set(path, { input, error });
    return { error, helpEl };
  }

  function textField(path, label, value, o = {}) {
    const input = h('input', {
      class: 'input',
      type: o.type ?? 'text',
      value: value ?? '',
      placeholder: o.placeholder,
      autocomplete: o.autocomplete ?? 'off',
      maxlength: o.maxlength,
      spellcheck: 'false',
    });
    const { error, helpEl } = register(path, input, o.help);
    if (o.validate) input.addEventListener('blur', () => showError(path, o.validate(input.value)));
    return h('div', { class: 'field' }, h('label', { class: 'field__label', for: idFor(path) }, label), input, error, helpEl);
  }

  function selectField(path, label, value, table, tableName) {
    const options = Object.entries(table).map(([code, meaning]) => {
      const key = `code.${tableName}.${code}`;
      return h('option', { value: code, selected: code === value }, `${code} · ${has(key) ? t(key) : meaning}`);
    });
    const input = h('select', { class: 'input select' }, options);
    const { error, helpEl } = register(path, input);
    return h('div', { class: 'field' }, h('label', { class: 'field__label', for: idFor(path) }, label), input, error, helpEl);
  }

  function checkboxField(path, label, checked) {
    const input = h('input', { type: 'checkbox', class: 'checkbox', checked });
    const { error } = register(path, input);
    return h('div', { class: 'field field--inline' }, input, h('label', { for: idFor(path) }, label), error);
  }

  function tableField(path, label, table, help) {
    const text = Object.entries(table)
      .map(([k, v]) => `${k} = ${v}`)
      .join('\n');
    const input = h('textarea', { class: 'input textarea', rows: Math.max(3, Object.keys(table).length + 1), spellcheck: 'false' });
    input.value = text;
    const { error, helpEl } = register(path, input, help);
    input.addEventListener('blur', () => showError(path, parseTable(input.value).error));
    return h('div', { class: 'field' }, h('label', { class: 'field__label', for: idFor(path) }, label), input, error, helpEl);
  }

  // ── errors ──────────────────────────────────────────────────────────────────────

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

  function clearErrors() {
    for (const path of fields.keys()) showError(path, undefined);
    clear(formBanner);
  }

  /** The field a server path belongs to: itself, or the closest registered parent (tables). */
  function fieldPathFor(path) {
    const parts = path.split('.');
    for (let n = parts.length; n > 0; n--) {
      const candidate = parts.slice(0, n).join('.');
      if (fields.has(candidate)) return candidate;
    }
    return undefined;
  }

  function errorText(path, serverMessage) {
    if (path.startsWith('credentials.') && /required/i.test(serverMessage)) return t('error.required');
    return ERROR_TEXT[path] ? t(ERROR_TEXT[path]) : serverMessage;
  }

  function showProblems(problems) {
    let shown = 0;
    let first;
    const unplaced = [];
    for (const p of problems) {
      const path = fieldPathFor(p.path);
      if (path && showError(path, errorText(p.path, p.message))) {
        shown++;
        first ??= fields.get(path).input;
      } else unplaced.push(p);
    }
    clear(formBanner).append(
      banner({
        id: 'settings-errors',
        tone: 'critical',
        title: t('settings.invalid'),
        body: [
          h('p', null, problems.length === 1 ? t('settings.invalidOne') : t('settings.invalidCount', { count: problems.length })),
          unplaced.length
            ? h(
                'ul',
                null,
                unplaced.map((p) => h('li', null, `${p.path}: ${p.message}`)),
              )
            : null,
        ],
      }),
    );
    first?.focus();
    return shown;
  }

  // ── reading the form ────────────────────────────────────────────────────────────

  const value = (path) => fields.get(path).input.value;
  const checked = (path) => fields.get(path).input.checked;

  function enteredCredentials() {
    const out = {};
    for (const c of CREDENTIALS) {
      const v = value(`credentials.${c}`).trim();
      if (v) out[c] = v;
    }
    return out;
  }

  function collect() {
    const problems = [];
    const table = (path) => {
      const parsed = parseTable(value(path));
      if (parsed.error) problems.push({ path, message: parsed.error });
      return parsed.table;
    };
    const credentials = enteredCredentials();
    const body = {
      environment: value('environment'),
      branchCode: value('branchCode').trim(),
      billingPoint: value('billingPoint').trim(),
      ...(Object.keys(credentials).length ? { credentials } : {}),
      mapping: {
        transactionDefaults: Object.fromEntries(TRANSACTION_DEFAULTS.map((k) => [k, value(`mapping.transactionDefaults.${k}`)])),
        paymentForms: table('mapping.paymentForms'),
        defaultPaymentForm: value('mapping.defaultPaymentForm'),
        checkoutAttributes: Object.fromEntries(ATTRIBUTES.map((k) => [k, value(`mapping.checkoutAttributes.${k}`)])),
        defaultLocationCode: value('mapping.defaultLocationCode').trim(),
        includeGiftCards: checked('mapping.includeGiftCards'),
        includeTips: checked('mapping.includeTips'),
        taxRateCodes: table('mapping.taxRateCodes'),
        shippingDescription: value('mapping.shippingDescription'),
        shippingCode: value('mapping.shippingCode'),
        tipDescription: value('mapping.tipDescription'),
        tipCode: value('mapping.tipCode'),
      },
    };
    const branch = validateBranch(body.branchCode);
    if (branch) problems.push({ path: 'branchCode', message: branch });
    const point = validateBillingPoint(body.billingPoint);
    if (point) problems.push({ path: 'billingPoint', message: point });
    return { body, problems };
  }

  // ── sections ────────────────────────────────────────────────────────────────────

  const formBanner = h('div', { class: 'stack', id: 'settings-banner' });
  const testResult = h('div', { id: 'connection-result', 'aria-live': 'polite' });

  const credentialInputs = CREDENTIALS.map((c) =>
    textField(`credentials.${c}`, t(`settings.cred.${c}`), '', {
      type: SECRET_CREDENTIALS.has(c) ? 'password' : 'text',
      autocomplete: SECRET_CREDENTIALS.has(c) ? 'new-password' : 'off',
      placeholder: shop.credentials?.[c] ? t('settings.credStored') : t('settings.credRequired'),
    }),
  );
  const testButton = button(t('settings.testConnection'), { id: 'test-connection' });
  testButton.addEventListener('click', () => busy(testButton, t('settings.testing'), testConnection));

  const environmentSelect = h(
    'div',
    { class: 'field' },
    h('label', { class: 'field__label', for: idFor('environment') }, t('settings.environment')),
    (() => {
      const select = h(
        'select',
        { class: 'input select' },
        h('option', { value: 'pruebas', selected: settings.environment === 'pruebas' }, t('env.name.pruebas')),
        h('option', { value: 'produccion', selected: settings.environment === 'produccion' }, t('env.name.produccion')),
      );
      register('environment', select, t('settings.environmentHelp'));
      return select;
    })(),
    fields.get('environment').error,
    h('p', { class: 'field__help', id: `${idFor('environment')}-help` }, t('settings.environmentHelp')),
  );

  const toggle = h('input', { type: 'checkbox', role: 'switch', id: 'enabled-switch', class: 'switch__input', checked: shop.enabled });
  const toggleState = h(
    'span',
    { class: 'switch__state', id: 'enabled-state' },
    t(shop.enabled ? 'settings.enabledOn' : 'settings.enabledOff'),
  );
  const toggleMessage = h('div', { id: 'enabled-message', 'aria-live': 'polite' });
  toggle.addEventListener('change', () => switchInvoicing(toggle.checked));

  const save = button(t('settings.save'), { variant: 'primary', type: 'submit', id: 'save-settings' });
  // Polaris puts the page's primary action in its header too; both submit the one form.
  const saveTop = button(t('settings.save'), { variant: 'primary', type: 'submit', id: 'save-settings-top' });
  saveTop.setAttribute('form', 'settings-form');

  const section = (title, help, ...content) =>
    h(
      'div',
      { class: 'annotated' },
      h('div', { class: 'annotated__text' }, h('h2', { class: 'annotated__title' }, title), h('p', { class: 'subdued' }, help)),
      h('section', { class: 'card' }, h('div', { class: 'card__body stack' }, content)),
    );

  const form = h(
    'form',
    {
      class: 'settings',
      id: 'settings-form',
      novalidate: true,
      onsubmit: (e) => (e.preventDefault(), busy(save, t('settings.saving'), saveSettings)),
    },
    formBanner,
    section(
      t('settings.connection'),
      t('settings.connectionHelp'),
      environmentSelect,
      h('div', { class: 'grid grid--2' }, credentialInputs),
      h('div', { class: 'inline-actions' }, testButton),
      testResult,
    ),
    section(
      t('settings.enable'),
      t('settings.enableHelp'),
      h(
        'label',
        { class: 'switch', for: 'enabled-switch' },
        toggle,
        h('span', { class: 'switch__track', 'aria-hidden': 'true' }, h('span', { class: 'switch__thumb' })),
        h('span', { class: 'switch__label' }, t('settings.enableLabel')),
      ),
      toggleState,
      toggleMessage,
    ),
    section(
      t('settings.numbering'),
      t('settings.numberingHelp'),
      h(
        'div',
        { class: 'grid grid--2' },
        textField('branchCode', t('settings.branchCode'), settings.branchCode, {
          help: t('settings.branchCodeHelp'),
          maxlength: 4,
          validate: validateBranch,
        }),
        textField('billingPoint', t('settings.billingPoint'), settings.billingPoint, {
          help: t('settings.billingPointHelp'),
          maxlength: 3,
          validate: validateBillingPoint,
        }),
      ),
    ),
    section(
      t('settings.document'),
      t('settings.documentHelp'),
      h(
        'div',
        { class: 'grid grid--2' },
        TRANSACTION_DEFAULTS.map((k) =>
          selectField(`mapping.transactionDefaults.${k}`, t(`settings.td.${k}`), mapping.transactionDefaults[k], shop.choices[k], k),
        ),
      ),
    ),
    section(
      t('settings.payments'),
      t('settings.paymentsHelp'),
      selectField(
        'mapping.defaultPaymentForm',
        t('settings.defaultPaymentForm'),
        mapping.defaultPaymentForm,
        shop.choices.paymentForm,
        'paymentForm',
      ),
      tableField('mapping.paymentForms', t('settings.paymentForms'), mapping.paymentForms, t('settings.paymentFormsHelp')),
      textField('mapping.defaultLocationCode', t('settings.defaultLocationCode'), mapping.defaultLocationCode, {
        help: t('settings.defaultLocationCodeHelp'),
        maxlength: 12,
      }),
      checkboxField('mapping.includeGiftCards', t('settings.includeGiftCards'), mapping.includeGiftCards),
      checkboxField('mapping.includeTips', t('settings.includeTips'), mapping.includeTips),
    ),
    section(
      t('settings.taxes'),
      t('settings.taxesHelp'),
      tableField('mapping.taxRateCodes', t('settings.taxRateCodes'), mapping.taxRateCodes, t('settings.taxRateCodesHelp')),
    ),
    section(
      t('settings.checkout'),
      t('settings.checkoutHelp'),
      h(
        'div',
        { class: 'grid grid--2' },
        ATTRIBUTES.map((k) =>
          textField(`mapping.checkoutAttributes.${k}`, t(`settings.attr.${k}`), mapping.checkoutAttributes[k], { maxlength: 100 }),
        ),
      ),
    ),
    section(
      t('settings.lines'),
      t('settings.linesHelp'),
      h(
        'div',
        { class: 'grid grid--2' },
        textField('mapping.shippingDescription', t('settings.shippingDescription'), mapping.shippingDescription, { maxlength: 100 }),
        textField('mapping.shippingCode', t('settings.shippingCode'), mapping.shippingCode, { maxlength: 20 }),
        textField('mapping.tipDescription', t('settings.tipDescription'), mapping.tipDescription, { maxlength: 100 }),
        textField('mapping.tipCode', t('settings.tipCode'), mapping.tipCode, { maxlength: 20 }),
      ),
    ),
    h('div', { class: 'save-bar' }, h('div', { class: 'save-bar__inner' }, save)),
  );

  container.append(
    h(
      'div',
      { class: 'page__header' },
      h('h1', { class: 'page__title' }, t('settings.title')),
      h('div', { class: 'page__actions' }, saveTop),
    ),
    form,
  );

  // ── actions ─────────────────────────────────────────────────────────────────────

  async function saveSettings() {
    clearErrors();
    const { body, problems } = collect();
    if (problems.length) return showProblems(problems);
    try {
      shop = await api('PUT', '/api/settings', body);
    } catch (error) {
      if (error instanceof ApiError && Array.isArray(error.body?.problems)) return showProblems(error.body.problems);
      clear(formBanner).append(
        banner({ tone: 'critical', title: t('app.loadFailed'), body: error.status === 0 ? t('error.network') : error.message }),
      );
      return;
    }
    ctx.setShop(shop);
    for (const c of CREDENTIALS) {
      const input = fields.get(`credentials.${c}`).input;
      input.value = '';
      input.placeholder = shop.credentials?.[c] ? t('settings.credStored') : t('settings.credRequired');
    }
    clear(toggleMessage);
    toast(t('settings.saved'));
  }

  async function testConnection() {
    clear(testResult);
    for (const c of CREDENTIALS) showError(`credentials.${c}`, undefined);
    let result;
    try {
      result = await api('POST', '/api/settings/test-connection', { credentials: enteredCredentials(), environment: value('environment') });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && Array.isArray(error.body?.problems)) {
        for (const p of error.body.problems) showError(p.path, errorText(p.path, p.message));
        testResult.append(banner({ tone: 'warning', title: t('settings.test.incomplete') }));
        return;
      }
      testResult.append(
        banner({
          tone: 'critical',
          title: t('settings.test.unknown', { message: error.status === 0 ? t('error.network') : error.message }),
        }),
      );
      return;
    }
    if (result.result === 'valid')
      testResult.append(banner({ tone: 'success', title: t('settings.test.valid', { env: t(`env.name.${result.environment}`) }) }));
    else if (result.result === 'invalid')
      testResult.append(banner({ tone: 'critical', title: t('settings.test.invalid', { code: result.code, message: result.message }) }));
    else testResult.append(banner({ tone: 'warning', title: t('settings.test.unknown', { message: result.message }) }));
  }

  async function switchInvoicing(enabled) {
    clear(toggleMessage);
    toggle.disabled = true;
    try {
      shop = await api('POST', '/api/shop/enabled', { enabled });
      ctx.setShop(shop);
      toast(t(shop.enabled ? 'settings.enabledNow' : 'settings.disabledNow'));
    } catch (error) {
      const refused = error instanceof ApiError && error.body?.code === 'settings_incomplete';
      toggleMessage.append(banner({ tone: 'critical', title: refused ? t('settings.enableRefused') : error.message }));
    } finally {
      toggle.disabled = false;
      toggle.checked = shop.enabled;
      toggleState.textContent = t(shop.enabled ? 'settings.enabledOn' : 'settings.enabledOff');
    }
  }
}

/** "name = code" lines → { name: code }; blank lines are skipped. */
export function parseTable(text) {
  const table = {};
  const lines = String(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const match = /^(.+?)\s*[=:]\s*(\S+)$/.exec(line);
    if (!match) return { table, error: t('settings.lineFormat', { line: i + 1 }) };
    table[match[1].trim()] = match[2].trim();
  }
  return { table, error: undefined };
}

function validateBranch(v) {
  return /^[0-9A-Za-z]{4}$/.test(v.trim()) ? undefined : t('error.branchCode');
}

function validateBillingPoint(v) {
  const s = v.trim();
  return /^\d{3}$/.test(s) && s !== '000' ? undefined : t('error.billingPoint');
}
