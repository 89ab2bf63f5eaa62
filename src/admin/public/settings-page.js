// Configuración: the shop's settings as one form (the server validates it with the same schema the CLI
// uses and names each field it refuses, shown inline), "test connection", and the invoicing switch.
// The fields themselves are built in settings-fields.js.
import { ApiError, api, errorText } from './api.js';
import { banner, busy, button, clear, h, toast } from './dom.js';
import { t } from './i18n.js';
import { createFields, parseTable, validateBillingPoint, validateBranch } from './settings-fields.js';
import { deliveryCodeSelect, flowSection, problemsBanner, section } from './settings-sections.js';
import { seriesSettings } from './settings-series.js';

const SECRET_CREDENTIALS = new Set(['GW_Token', 'Token']);
const ATTRIBUTES = ['ruc', 'dv', 'businessName', 'address', 'locationCode'];

/** @param {HTMLElement} container @param {import('./page-types').PageContext} ctx */
export async function renderSettings(container, ctx) {
  let shop = ctx.shop;
  const { credentials: CREDENTIALS, transactionDefaults: TRANSACTION_DEFAULTS } = shop.fields;
  const settings = shop.settings;
  const mapping = settings.mapping;
  const fields = createFields();
  const { value, checked } = fields;
  const series = seriesSettings(shop);

  /** @param {import('./settings-fields.js').Problem[]} problems */
  function showProblems(problems) {
    clear(formBanner).append(problemsBanner(problems, fields.placeProblems(problems)));
  }

  function clearErrors() {
    fields.clearErrors();
    clear(formBanner);
  }

  // ── reading the form ────────────────────────────────────────────────────────────

  function enteredCredentials() {
    /** @type {Record<string, string>} */
    const out = {};
    for (const c of CREDENTIALS) {
      const v = value(`credentials.${c}`).trim();
      if (v) out[c] = v;
    }
    return out;
  }

  function collect() {
    /** @type {import('./settings-fields.js').Problem[]} */
    const problems = [];
    const table = (/** @type {string} */ path) => {
      const parsed = parseTable(value(path));
      if (parsed.error) problems.push({ path, message: parsed.error });
      return parsed.table;
    };
    const credentials = enteredCredentials();
    const located = series.collectLocations();
    problems.push(...located.problems);
    const body = {
      environment: value('environment'),
      branchCode: value('branchCode').trim(),
      billingPoint: value('billingPoint').trim(),
      locations: located.locations,
      accountantEmail: value('accountantEmail').trim(),
      ...(Object.keys(credentials).length ? { credentials } : {}),
      mapping: {
        // An empty choice (deliveryCAFE's "as delivered") is left out: the server then derives the code.
        transactionDefaults: Object.fromEntries(
          TRANSACTION_DEFAULTS.map((k) => [k, value(`mapping.transactionDefaults.${k}`)]).filter(([, v]) => v !== ''),
        ),
        paymentForms: table('mapping.paymentForms'),
        defaultPaymentForm: value('mapping.defaultPaymentForm'),
        checkoutAttributes: Object.fromEntries(ATTRIBUTES.map((k) => [k, value(`mapping.checkoutAttributes.${k}`)])),
        customerTaxIdMetafield: metafield(),
        defaultLocationCode: value('mapping.defaultLocationCode').trim(),
        cafeDelivery: value('mapping.cafeDelivery'),
        creditNoteNatureOperation: value('mapping.creditNoteNatureOperation'),
        includeGiftCards: checked('mapping.includeGiftCards'),
        includeTips: checked('mapping.includeTips'),
        taxRateCodes: table('mapping.taxRateCodes'),
        shippingDescription: value('mapping.shippingDescription'),
        shippingCode: value('mapping.shippingCode'),
        tipDescription: value('mapping.tipDescription'),
        tipCode: value('mapping.tipCode'),
      },
      buyerRequests: { enabled: checked('buyerRequests.enabled'), days: Number(value('buyerRequests.days').trim() || NaN) },
      flowTriggers: { enabled: checked('flowTriggers.enabled'), language: value('flowTriggers.language') },
    };
    const branch = validateBranch(body.branchCode);
    if (branch) problems.push({ path: 'branchCode', message: branch });
    const point = validateBillingPoint(body.billingPoint);
    if (point) problems.push({ path: 'billingPoint', message: point });
    return { body, problems };
  }

  /** The customer metafield with the RUC: both parts empty means none (the server names a missing half). */
  function metafield() {
    const namespace = value('mapping.customerTaxIdMetafield.namespace').trim();
    const key = value('mapping.customerTaxIdMetafield.key').trim();
    return namespace === '' && key === '' ? null : { namespace, key };
  }

  // ── sections ────────────────────────────────────────────────────────────────────

  const formBanner = h('div', { class: 'stack', id: 'settings-banner' });
  const testResult = h('div', { id: 'connection-result', 'aria-live': 'polite' });

  const credentialInputs = CREDENTIALS.map((c) =>
    fields.text(`credentials.${c}`, t(`settings.cred.${c}`), '', {
      type: SECRET_CREDENTIALS.has(c) ? 'password' : 'text',
      autocomplete: SECRET_CREDENTIALS.has(c) ? 'new-password' : 'off',
      placeholder: shop.credentials?.[c] ? t('settings.credStored') : t('settings.credRequired'),
    }),
  );
  const testButton = button(t('settings.testConnection'), { id: 'test-connection' });
  testButton.addEventListener('click', () => busy(testButton, t('settings.testing'), testConnection));

  const environmentSelect = fields.choice(
    'environment',
    t('settings.environment'),
    [
      ['pruebas', t('env.name.pruebas')],
      ['produccion', t('env.name.produccion')],
    ],
    settings.environment,
    t('settings.environmentHelp'),
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

  const form = h(
    'form',
    {
      class: 'settings',
      id: 'settings-form',
      novalidate: true,
      onsubmit: (/** @type {Event} */ e) => (e.preventDefault(), busy(save, t('settings.saving'), saveSettings)),
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
        fields.text('branchCode', t('settings.branchCode'), settings.branchCode, {
          help: t('settings.branchCodeHelp'),
          maxlength: 4,
          validate: validateBranch,
        }),
        fields.text('billingPoint', t('settings.billingPoint'), settings.billingPoint, {
          help: t('settings.billingPointHelp'),
          maxlength: 3,
          validate: validateBillingPoint,
        }),
      ),
    ),
    section(t('series.locations'), t('series.locationsHelp'), series.locationsBody),
    section(t('series.title'), t('series.help'), series.seriesBody),
    section(
      t('settings.accountant'),
      t('settings.accountantHelp'),
      fields.text('accountantEmail', t('settings.accountantEmail'), settings.accountantEmail ?? '', {
        type: 'email',
        autocomplete: 'email',
        help: t('settings.accountantEmailHelp'),
      }),
    ),
    section(
      t('settings.document'),
      t('settings.documentHelp'),
      h(
        'div',
        { class: 'grid grid--2' },
        // deliveryCAFE is asked once, with the delivery to the buyer below.
        TRANSACTION_DEFAULTS.filter((k) => k !== 'deliveryCAFE').map((k) =>
          fields.select(
            `mapping.transactionDefaults.${k}`,
            t(`settings.td.${k}`),
            mapping.transactionDefaults[k] ?? '',
            shop.choices[k],
            k,
          ),
        ),
        fields.select(
          'mapping.creditNoteNatureOperation',
          t('settings.creditNoteNatureOperation'),
          mapping.creditNoteNatureOperation,
          shop.choices.natureOperation,
          'natureOperation',
        ),
      ),
    ),
    section(
      t('settings.delivery'),
      t('settings.deliveryHelp'),
      fields.choice(
        'mapping.cafeDelivery',
        t('settings.cafeDelivery'),
        ['app_email', 'provider_email', 'paper'].map((v) => [v, t(`settings.cafeDelivery.${v}`)]),
        mapping.cafeDelivery,
      ),
      deliveryCodeSelect(fields, mapping, shop.choices.deliveryCAFE),
    ),
    section(
      t('settings.buyerRequests'),
      t('settings.buyerRequestsHelp'),
      fields.checkbox('buyerRequests.enabled', t('settings.buyerRequestsEnabled'), settings.buyerRequests.enabled),
      fields.text('buyerRequests.days', t('settings.buyerRequestsDays'), String(settings.buyerRequests.days), {
        type: 'number',
        maxlength: 3,
        help: t('settings.buyerRequestsDaysHelp'),
      }),
    ),
    flowSection(fields, settings.flowTriggers),
    section(
      t('settings.payments'),
      t('settings.paymentsHelp'),
      fields.select(
        'mapping.defaultPaymentForm',
        t('settings.defaultPaymentForm'),
        mapping.defaultPaymentForm,
        shop.choices.paymentForm,
        'paymentForm',
      ),
      fields.table('mapping.paymentForms', t('settings.paymentForms'), mapping.paymentForms, t('settings.paymentFormsHelp')),
      fields.text('mapping.defaultLocationCode', t('settings.defaultLocationCode'), mapping.defaultLocationCode, {
        help: t('settings.defaultLocationCodeHelp'),
        maxlength: 12,
      }),
      fields.checkbox('mapping.includeGiftCards', t('settings.includeGiftCards'), mapping.includeGiftCards),
      fields.checkbox('mapping.includeTips', t('settings.includeTips'), mapping.includeTips),
    ),
    section(
      t('settings.taxes'),
      t('settings.taxesHelp'),
      fields.table('mapping.taxRateCodes', t('settings.taxRateCodes'), mapping.taxRateCodes, t('settings.taxRateCodesHelp')),
    ),
    section(
      t('settings.checkout'),
      t('settings.checkoutHelp'),
      h(
        'div',
        { class: 'grid grid--2' },
        ATTRIBUTES.map((k) =>
          fields.text(`mapping.checkoutAttributes.${k}`, t(`settings.attr.${k}`), mapping.checkoutAttributes[k], { maxlength: 100 }),
        ),
      ),
    ),
    section(
      t('settings.customerTaxId'),
      t('settings.customerTaxIdHelp'),
      h(
        'div',
        { class: 'grid grid--2' },
        fields.text(
          'mapping.customerTaxIdMetafield.namespace',
          t('settings.metafieldNamespace'),
          mapping.customerTaxIdMetafield?.namespace ?? '',
          {
            maxlength: 255,
          },
        ),
        fields.text('mapping.customerTaxIdMetafield.key', t('settings.metafieldKey'), mapping.customerTaxIdMetafield?.key ?? '', {
          maxlength: 64,
        }),
      ),
    ),
    section(
      t('settings.lines'),
      t('settings.linesHelp'),
      h(
        'div',
        { class: 'grid grid--2' },
        fields.text('mapping.shippingDescription', t('settings.shippingDescription'), mapping.shippingDescription, { maxlength: 100 }),
        fields.text('mapping.shippingCode', t('settings.shippingCode'), mapping.shippingCode, { maxlength: 20 }),
        fields.text('mapping.tipDescription', t('settings.tipDescription'), mapping.tipDescription, { maxlength: 100 }),
        fields.text('mapping.tipCode', t('settings.tipCode'), mapping.tipCode, { maxlength: 20 }),
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
    // Switching to production asks first, naming what changes (docs/series.md).
    if (shop.settings.environment !== 'produccion' && body.environment === 'produccion') {
      if (!(await series.confirmProduction(body, body.locations))) return;
    }
    try {
      shop = await api('PUT', '/api/settings', body);
    } catch (error) {
      if (error instanceof ApiError && Array.isArray(error.body?.problems)) return showProblems(error.body.problems);
      clear(formBanner).append(banner({ tone: 'critical', title: t('app.loadFailed'), body: errorText(error) }));
      return;
    }
    ctx.setShop(shop);
    for (const c of CREDENTIALS) {
      const input = /** @type {HTMLInputElement} */ (fields.input(`credentials.${c}`));
      input.value = '';
      input.placeholder = shop.credentials?.[c] ? t('settings.credStored') : t('settings.credRequired');
    }
    clear(toggleMessage);
    toast(t('settings.saved'));
  }

  async function testConnection() {
    clear(testResult);
    for (const c of CREDENTIALS) fields.showError(`credentials.${c}`, undefined);
    let result;
    try {
      result = await api('POST', '/api/settings/test-connection', { credentials: enteredCredentials(), environment: value('environment') });
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && Array.isArray(error.body?.problems)) {
        fields.placeProblems(error.body.problems);
        testResult.append(banner({ tone: 'warning', title: t('settings.test.incomplete') }));
        return;
      }
      testResult.append(
        banner({
          tone: 'critical',
          title: t('settings.test.unknown', { message: errorText(error) }),
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

  /** @param {boolean} enabled */
  async function switchInvoicing(enabled) {
    clear(toggleMessage);
    toggle.disabled = true;
    try {
      shop = await api('POST', '/api/shop/enabled', { enabled });
      ctx.setShop(shop);
      toast(t(shop.enabled ? 'settings.enabledNow' : 'settings.disabledNow'));
    } catch (error) {
      const refused = error instanceof ApiError && error.body?.code === 'settings_incomplete';
      toggleMessage.append(banner({ tone: 'critical', title: refused ? t('settings.enableRefused') : errorText(error) }));
    } finally {
      toggle.disabled = false;
      toggle.checked = shop.enabled;
      toggleState.textContent = t(shop.enabled ? 'settings.enabledOn' : 'settings.enabledOff');
    }
  }
}
