// The buyer's page as HTML, rendered on the server from the view (buyer-view.ts): readable without JavaScript, every
// value escaped; the request form is sent as JSON by ./public/buyer-page.js. Works from 390 px wide.
import { PANAMA_LOCATIONS } from '../../mappers/fiscal/panama-locations.ts';
import type { Language } from '../db/languages.ts';
import { BUYER_PATH } from '../documents/buyer-link.ts';
import { CLIENT_FIELDS, text } from './buyer-problems.ts';
import { type BuyerDocumentView, type LinkedDocument, panamaDay } from './buyer-view.ts';

export const BUYER_ASSETS_PATH = `${BUYER_PATH}/assets`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const jsonForScript = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

/** Tagged template: every interpolated value escaped, except what is already markup (`Html`). */
class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString() {
    return this.value;
  }
}
type Part = Html | string | number | null | undefined | false | readonly Part[];
function part(p: Part): string {
  if (p === null || p === undefined || p === false) return '';
  if (Array.isArray(p)) return p.map(part).join('');
  return p instanceof Html ? p.value : escapeHtml(String(p));
}
function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  return new Html(strings.reduce((out, s, i) => out + s + (i < parts.length ? part(parts[i]!) : ''), ''));
}

/** The page of a document. */
export function buyerPageHtml(v: BuyerDocumentView): string {
  const t = (key: string, params: Record<string, string> = {}) => text(v.language, key, params);
  const title = v.fiscalNumber
    ? t('pageTitle', { kind: v.kind, fiscalNumber: v.fiscalNumber })
    : t('pageTitlePending', { orderName: v.orderName });
  const other: Language = v.language === 'es' ? 'en' : 'es';
  const body = html` <header class="top">
      <p class="order">${t('orderLine', { orderName: v.orderName })}</p>
      <a class="lang" href="?lang=${other}" hreflang="${other}" lang="${other}">${t('otherLanguage')}</a>
    </header>
    <h1>${title}</h1>
    <p class="state state--${v.state}" data-state="${v.state}">${v.stateText}</p>
    ${facts(v)} ${related(v)} ${v.kind === 'invoice' ? creditNotes(v) : ''} ${v.kind === 'invoice' ? requestSection(v) : ''}`;
  return page(v.language, title, body, v.kind === 'invoice' && v.requestable ? v : undefined);
}

/** A page that says only that the link leads nowhere (404), or that something went wrong (500). */
export function buyerMessageHtml(language: Language, key: 'notFound' | 'serverError' | 'tooMany'): string {
  const message = text(language, key);
  return page(language, message, html`<h1>${message}</h1>`, undefined);
}

function page(language: Language, title: string, body: Html, form: BuyerDocumentView | undefined): string {
  const config = form && {
    language: form.language,
    links: form.links,
    fields: CLIENT_FIELDS,
    texts: Object.fromEntries(
      ['sending', 'submit', 'tooMany', 'serverError', 'notFound', 'contactShop'].map((k) => [k, text(language, k)]),
    ),
  };
  return html`<!doctype html>
    <html lang="${language}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="${BUYER_ASSETS_PATH}/buyer-page.css" />
        ${
          config
            ? html`<script type="application/json" id="buyer-config">
                ${new Html(jsonForScript(config))}
              </script>`
            : ''
        }
        ${config ? html`<script type="module" src="${BUYER_ASSETS_PATH}/buyer-page.js"></script>` : ''}
      </head>
      <body>
        <main class="page">${body}</main>
      </body>
    </html> `.value;
}

function facts(v: BuyerDocumentView): Html {
  const t = (key: string) => text(v.language, key);
  const row = (key: string, value: Part, cls = '') =>
    html`<div class="fact ${cls}">
      <dt>${t(key)}</dt>
      <dd>${value}</dd>
    </div>`;
  const client = v.client
    ? v.client.type === 'final_consumer'
      ? [t('finalConsumer'), v.client.name ? ` · ${v.client.name}` : '']
      : [v.client.name ?? '', v.client.ruc ? ` · RUC ${v.client.ruc}${v.client.dv ? ` DV ${v.client.dv}` : ''}` : '']
    : null;
  return html` <dl class="facts">
      ${v.fiscalNumber ? row('number', v.fiscalNumber) : ''} ${v.date ? row('date', displayDate(v.date)) : ''}
      ${row('total', `${v.total} ${v.currency}`, 'fact--total')} ${client ? row('client', client) : ''}
      ${v.cufe ? row('cufe', html`<code>${v.cufe}</code>`, 'fact--cufe') : ''}
    </dl>
    ${
      v.qr || v.pdfUrl
        ? html`<div class="links">
            ${
              v.qr
                ? html`<figure class="qr">
                    <img src="${v.qr.image}" width="160" height="160" alt="${t('qrAlt')}" />
                    <figcaption><a href="${v.qr.url}" rel="noopener noreferrer" target="_blank">${t('dgiLink')}</a></figcaption>
                  </figure>`
                : ''
            }
            ${v.pdfUrl ? html`<a class="button" href="${v.pdfUrl}" download>${t('pdf')}</a>` : ''}
          </div>`
        : ''
    }`;
}

function related(v: BuyerDocumentView): Html {
  const t = (key: string, fiscalNumber: string) => text(v.language, key, { fiscalNumber });
  const link = (key: string, d: LinkedDocument | null) =>
    d ? html`<p class="related"><a href="${d.url}">${t(key, d.fiscalNumber ?? text(v.language, 'inProgress'))}</a></p>` : '';
  return html`${link('noteOf', v.invoice)}${link('replacedBy', v.replacedBy)}${link('replaces', v.replaces)}`;
}

function creditNotes(v: BuyerDocumentView): Html {
  const t = (key: string) => text(v.language, key);
  if (v.creditNotes.length === 0)
    return html`<section class="notes">
      <h2>${t('creditNotes')}</h2>
      <p class="muted">${t('noCreditNotes')}</p>
    </section>`;
  const items = v.creditNotes.map(
    (n) =>
      html`<li class="note">
        <a href="${n.url}">${n.fiscalNumber ?? t('inProgress')}</a>
        <span>${n.date ? displayDate(n.date) : ''}</span>
        <span class="amount">${n.total} ${n.currency}</span>
        ${n.pdfUrl ? html`<a href="${n.pdfUrl}" download>PDF</a>` : ''}
      </li>`,
  );
  return html`<section class="notes">
    <h2>${t('creditNotes')}</h2>
    <ul>
      ${items}
    </ul>
  </section>`;
}

function requestSection(v: BuyerDocumentView): Html {
  const t = (key: string, params: Record<string, string> = {}) => text(v.language, key, params);
  if (!v.requestable) {
    if (!v.reason || v.reason.code === 'not_invoice') return html``;
    return html`<section class="request" id="request">
      <h2>${t('requestHeading')}</h2>
      <p class="reason reason--${v.reason.code}" role="status">${v.reason.message}</p>
    </section>`;
  }
  const input = (
    name: string,
    o: { type?: string; required?: boolean; hint?: string; autocomplete?: string; inputmode?: string; max?: number },
  ) =>
    html`<div class="field" data-field="${name}">
      <label for="f-${name}">${t(name)}</label>
      <input
        id="f-${name}"
        name="${name}"
        type="${o.type ?? 'text'}"
        ${o.required === false ? '' : new Html('required')}
        maxlength="${o.max ?? 100}"
        ${o.autocomplete ? html`autocomplete="${o.autocomplete}"` : ''}
        ${o.inputmode ? html`inputmode="${o.inputmode}"` : ''}
        aria-describedby="e-${name}${o.hint ? ` h-${name}` : ''}"
      />
      ${o.hint ? html`<p class="hint" id="h-${name}">${o.hint}</p>` : ''}
      <p class="problem" id="e-${name}" role="alert"></p>
    </div>`;
  const until = v.requestUntil ? panamaDay(new Date(v.requestUntil), v.language) : '';
  const kind = v.cufe ? 'reissue' : 'correct';
  return html`<section class="request" id="request">
    <h2>${t('requestHeading')}</h2>
    <p>${t('requestIntro', { kind, date: until })}</p>
    <form class="form" novalidate>
      <input type="hidden" name="type" value="taxpayer" />
      <div class="field-row">${input('ruc', { hint: t('rucHint'), max: 40 })} ${input('dv', { inputmode: 'numeric', max: 2 })}</div>
      ${input('name', { autocomplete: 'organization' })} ${input('address', { autocomplete: 'street-address' })}
      <div class="field" data-field="locationCode">
        <label for="f-locationCode">${t('locationCode')}</label>
        <select id="f-locationCode" name="locationCode" required aria-describedby="e-locationCode">
          ${locationOptions(t('locationChoose'))}
        </select>
        <p class="problem" id="e-locationCode" role="alert"></p>
      </div>
      ${input('email', { type: 'email', required: false, hint: t('emailHint'), autocomplete: 'email' })}
      <p class="problem" id="e-form" role="alert"></p>
      <button class="button button--primary" type="submit">${t('submit')}</button>
    </form>
    <noscript><p class="muted">${t('noScript')}</p></noscript>
    <p class="outcome" id="outcome" role="status" hidden></p>
  </section>`;
}

let options: Html | undefined;
/** The DGI's corregimientos, grouped by province and district (made once). */
function locationOptions(choose: string): Html {
  options ??= html`${[...Map.groupBy(PANAMA_LOCATIONS, (l) => `${l.province} · ${l.district}`)].map(
    ([group, list]) =>
      html`<optgroup label="${group}">${list.map((l) => html`<option value="${l.code}">${l.corregimiento}</option>`)}</optgroup>`,
  )}`;
  return html`<option value="">${choose}</option>
    ${options}`;
}

/** "2026-11-27T10:15:00-05:00" → "27/11/2026", the day as sent to the DGI. */
function displayDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso;
}
