import type { Account } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { client, errorText, onSessionLost } from './api.js';
import { AccountPage } from './pages/account.page.js';
import { AppsPage } from './pages/apps.page.js';
import { ConnectionsPage } from './pages/connections.page.js';
import { SignInPage } from './pages/sign-in.page.js';
import { TasksPage } from './pages/tasks.page.js';
import { TokensPage } from './pages/tokens.page.js';
import { UsagePage } from './pages/usage.page.js';
import { WebhooksPage } from './pages/webhooks.page.js';

type Me = Account;
type Session = { state: 'loading' } | { state: 'signed-out'; notice?: string } | { state: 'signed-in'; me: Me };

const PAGES = [
  ['tasks', 'Tasks'],
  ['connections', 'Connections'],
  ['tokens', 'API tokens'],
  ['apps', 'Authorised apps'],
  ['webhooks', 'Webhooks'],
  ['usage', 'Usage'],
  ['account', 'Account'],
] as const;
type Route = (typeof PAGES)[number][0] | 'sign-up' | 'sign-in';

function currentRoute(): Route {
  const name = location.hash.replace(/^#\/?/, '');
  return PAGES.some(([page]) => page === name) || name === 'sign-up' ? (name as Route) : 'sign-in';
}

export function App() {
  const [session, setSession] = useState<Session>({ state: 'loading' });
  const [route, setRoute] = useState<Route>(currentRoute);

  useEffect(() => {
    const follow = () => setRoute(currentRoute());
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  // A new page moves focus to its heading, so keyboard and screen-reader users start there.
  useEffect(() => document.getElementById('page-title')?.focus(), [route, session.state]);
  useEffect(() => onSessionLost(() => setSession({ state: 'signed-out', notice: 'Your session ended: sign in again.' })), []);
  useEffect(() => {
    void (async () => {
      const resumed = await client.resumeSession();
      if (resumed.error) return setSession({ state: 'signed-out', notice: errorText(resumed.error) });
      if (!resumed.signedIn) return setSession({ state: 'signed-out' });
      const me = await client.getMe();
      setSession(me.data ? { state: 'signed-in', me: me.data } : { state: 'signed-out' });
    })();
  }, []);

  const signedIn = async () => {
    const me = await client.getMe();
    if (me.data) {
      setSession({ state: 'signed-in', me: me.data });
      location.hash = '#/tasks';
    }
  };
  const signOut = async () => {
    await client.logout();
    setSession({ state: 'signed-out' });
    location.hash = '#/';
  };

  if (session.state === 'loading') {
    return (
      <main id="main">
        <p role="status">Loading…</p>
      </main>
    );
  }
  if (session.state === 'signed-out') {
    return (
      <main id="main" class="narrow">
        <SignInPage mode={route === 'sign-up' ? 'sign-up' : 'sign-in'} notice={session.notice} onSignedIn={signedIn} />
      </main>
    );
  }
  const page = route === 'sign-in' || route === 'sign-up' ? 'tasks' : route;
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('page-title')?.focus())}>
        Skip to content
      </a>
      <header>
        <p class="brand">Task Service</p>
        <nav aria-label="Main">
          <ul>
            {PAGES.map(([name, label]) => (
              <li key={name}>
                <a href={`#/${name}`} aria-current={page === name ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span class="muted">{session.me.email}</span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        {page === 'tasks' && <TasksPage />}
        {page === 'connections' && <ConnectionsPage />}
        {page === 'tokens' && <TokensPage />}
        {page === 'apps' && <AppsPage />}
        {page === 'webhooks' && <WebhooksPage />}
        {page === 'usage' && <UsagePage />}
        {page === 'account' && <AccountPage email={session.me.email} onDeleted={() => setSession({ state: 'signed-out', notice: 'Your account was deleted.' })} />}
      </main>
    </>
  );
}
