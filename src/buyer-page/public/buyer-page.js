// The buyer's request form (src/buyer-page/buyer-html.ts): each field checked as the buyer leaves it, by the server's
// own rules (POST <link>/check), and the request sent as JSON (POST <link>/request). No cookies, no framework.
// @ts-check

const config = JSON.parse(document.getElementById('buyer-config')?.textContent ?? '{}');
const form = document.querySelector('form.form');
const outcome = document.getElementById('outcome');

/** The form's values as the API takes them: empty optional fields left out. */
function client() {
  const data = new FormData(/** @type {HTMLFormElement} */ (form));
  /** @type {Record<string, string>} */
  const body = {};
  for (const name of config.fields) {
    const value = String(data.get(name) ?? '').trim();
    if (value !== '' || name !== 'email') body[name] = value;
  }
  return body;
}

/** Shows each field's problem under it (and clears the others); `only` limits it to the fields the buyer filled. */
function showProblems(/** @type {{path: string, message: string}[]} */ problems, /** @type {Set<string> | undefined} */ only) {
  for (const name of config.fields) {
    if (only && !only.has(name)) continue;
    const problem = problems.find((p) => p.path === name);
    const slot = document.getElementById(`e-${name}`);
    if (slot) slot.textContent = problem ? problem.message : '';
    document.querySelector(`[data-field="${name}"]`)?.classList.toggle('field--invalid', Boolean(problem));
    document.getElementById(`f-${name}`)?.setAttribute('aria-invalid', problem ? 'true' : 'false');
  }
  const others = problems.filter((p) => !config.fields.includes(p.path) && (!only || p.path === '(body)'));
  const formSlot = document.getElementById('e-form');
  if (formSlot && !only) formSlot.textContent = others.map((p) => p.message).join(' ');
}

/** The fields the buyer has filled so far (a live check says nothing of the ones still empty). */
function filled() {
  const body = client();
  return new Set(Object.keys(body).filter((k) => body[k] !== '' && k !== 'type'));
}

async function post(/** @type {string} */ url) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(client()),
    credentials: 'omit',
  });
  /** @type {any} */
  const body = await response.json().catch(() => ({}));
  return { status: response.status, body };
}

let checking = 0;
async function liveCheck() {
  const mine = ++checking;
  try {
    const { status, body } = await post(config.links.request.replace(/\/request$/, '/check'));
    if (mine !== checking || status === 429) return;
    showProblems(Array.isArray(body.problems) ? body.problems : [], filled());
  } catch {
    // Offline for a moment: the server checks again on submit.
  }
}

function finish(/** @type {string} */ message, /** @type {boolean} */ done) {
  if (!outcome) return;
  outcome.hidden = false;
  outcome.textContent = message;
  if (done) form?.remove();
}

if (form) {
  form.addEventListener('change', () => void liveCheck());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]'));
    button.disabled = true;
    button.textContent = config.texts.sending;
    try {
      const { status, body } = await post(config.links.request);
      if (status === 202) return finish(body.message, true);
      if (status === 400) return showProblems(Array.isArray(body.problems) ? body.problems : []);
      if (status === 409) return finish(body.error, true);
      if (status === 429) return finish(config.texts.tooMany, false);
      finish(body.error ?? config.texts.serverError, false);
    } catch {
      finish(config.texts.serverError, false);
    } finally {
      button.disabled = false;
      button.textContent = config.texts.submit;
    }
  });
}
