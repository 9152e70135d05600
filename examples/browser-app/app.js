// A single-page app on its own origin: registers itself (RFC 7591), signs in with the authorization
// code flow and PKCE through the SDK, lists the tasks and shows the budget the service reports.
// No framework; sdk.js is the SDK bundled for browsers by build.mjs.
import { createTaskClient, OAuthFlowError } from './sdk.js';

const query = new URLSearchParams(location.search);
if (query.has('api')) sessionStorage.setItem('api', query.get('api'));
const api = sessionStorage.getItem('api') ?? 'http://127.0.0.1:3000';
const redirectUri = `${location.origin}${location.pathname}`;
const $ = (id) => document.getElementById(id);

/** One registration per service and page address, kept in localStorage. */
async function clientId() {
  const key = `client_id ${api} ${redirectUri}`;
  const known = localStorage.getItem(key);
  if (known) return known;
  const response = await fetch(`${api}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Browser example', redirect_uris: [redirectUri], scope: 'tasks:read tasks:write' }),
  });
  if (!response.ok) throw new Error(`Registration refused: ${response.status}`);
  const { client_id: id } = await response.json();
  localStorage.setItem(key, id);
  return id;
}

const saved = JSON.parse(sessionStorage.getItem('tokens') ?? '{}');
const client = createTaskClient({
  baseUrl: api,
  oauth: { clientId: await clientId() },
  accessToken: saved.accessToken,
  refreshToken: saved.refreshToken,
  onTokens: (tokens) => sessionStorage.setItem('tokens', JSON.stringify(tokens)),
  retry: true,
});

function showBudget(response) {
  const remaining = response.headers.get('X-RateLimit-Remaining');
  const limit = response.headers.get('X-RateLimit-Limit');
  if (remaining !== null) $('budget').textContent = `Budget: ${remaining} of ${limit} this minute`;
}

async function finishSignIn() {
  const pending = JSON.parse(sessionStorage.getItem('pending') ?? 'null');
  const callbackUrl = location.href;
  // The code works once: take it out of the address bar (and of a reload) before using it.
  sessionStorage.removeItem('pending');
  history.replaceState(null, '', redirectUri);
  if (!pending) throw new Error('No sign-in was started here.');
  const { error } = await client.exchangeCode({ callbackUrl, state: pending.state, codeVerifier: pending.codeVerifier, redirectUri });
  if (error) throw error;
}

async function startSignIn() {
  const { url, state, codeVerifier } = await client.createAuthorization({ redirectUri, scope: 'tasks:read' });
  sessionStorage.setItem('pending', JSON.stringify({ state, codeVerifier }));
  location.assign(url);
}

async function showTasks() {
  const { data, error, response } = await client.listTasks({ status: 'all', limit: 50 });
  showBudget(response);
  if (error) throw error;
  $('tasks').replaceChildren(
    ...data.items.map((task) => {
      const item = document.createElement('li');
      const priority = document.createElement('span');
      priority.className = 'priority';
      priority.textContent = `P${task.priority}`;
      item.append(priority, `${task.title}${task.status === 'completed' ? ' ✓' : ''}`);
      return item;
    }),
  );
  $('status').textContent = `${data.items.length} task${data.items.length === 1 ? '' : 's'}`;
}

$('sign-in').addEventListener('click', () => startSignIn().catch(fail));
$('sign-out').addEventListener('click', () => {
  sessionStorage.removeItem('tokens');
  location.reload();
});

function fail(err) {
  $('status').className = 'error';
  $('status').textContent = err instanceof OAuthFlowError ? `Sign-in failed (${err.code}): ${err.message}` : String(err.message ?? err);
}

try {
  const callback = new URLSearchParams(location.search);
  if (callback.has('code') || callback.has('error')) await finishSignIn();
  if (client.refreshToken || client.accessToken) {
    $('sign-out').hidden = false;
    await showTasks();
  } else {
    $('status').textContent = 'Not signed in.';
    $('sign-in').hidden = false;
  }
} catch (err) {
  fail(err);
  $('sign-in').hidden = false;
}
