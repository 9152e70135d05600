import type { Account } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { client, mayHaveSession, onSessionLost, rememberSession } from './api.js';
import { announce, LiveRegion } from './live.js';
import { Menu, PAGES, type PageName } from './menu.js';
import { AccountPage } from './pages/account.page.js';
import { AppsPage } from './pages/apps.page.js';
import { ConnectionsPage } from './pages/connections.page.js';
import { SignInPage } from './pages/sign-in.page.js';
import { TasksPage } from './tasks/tasks.page.js';
import { TokensPage } from './pages/tokens.page.js';
import { UsagePage } from './pages/usage.page.js';
import { WebhooksPage } from './pages/webhooks.page.js';
import { sayError } from './words.js';

type Me = Account;
type Session = { state: 'loading' } | { state: 'signed-out'; notice?: string } | { state: 'signed-in'; me?: Me | undefined };

type Route = PageName | 'sign-up' | 'sign-in';

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
  useEffect(
    () =>
      onSessionLost(() => {
        rememberSession(false);
        setSession({ state: 'signed-out', notice: 'Your session ended: sign in again.' });
        announce('Your session ended: sign in again.');
      }),
    [],
  );
  useEffect(() => {
    void (async () => {
      // Never signed in here (or signed out): no session cookie to exchange, so no refused request.
      if (!mayHaveSession()) return setSession({ state: 'signed-out' });
      try {
        const resumed = await client.resumeSession();
        if (resumed.error) return setSession({ state: 'signed-out', notice: sayError(resumed.error) });
        rememberSession(resumed.signedIn);
        if (!resumed.signedIn) return setSession({ state: 'signed-out' });
        // The page shows (and loads its data) at once; who is signed in follows in parallel.
        setSession({ state: 'signed-in' });
        const me = await client.getMe();
        if (me.data) setSession({ state: 'signed-in', me: me.data });
      } catch (caught) {
        setSession({ state: 'signed-out', notice: sayError(caught) });
      }
    })();
  }, []);

  const signedIn = async () => {
    rememberSession(true);
    const me = await client.getMe();
    if (me.data) {
      setSession({ state: 'signed-in', me: me.data });
      location.hash = '#/tasks';
    }
  };
  const signOut = async () => {
    rememberSession(false);
    await client.logout().catch(() => undefined);
    setSession({ state: 'signed-out' });
    location.hash = '#/';
  };

  if (session.state === 'loading') {
    return (
      <>
        <header class="bar-top">
          <p class="brand">Task Service</p>
        </header>
        <main id="main">
          <p class="muted">Loading…</p>
        </main>
        <LiveRegion />
      </>
    );
  }
  if (session.state === 'signed-out') {
    return (
      <>
        <main id="main" class="narrow">
          <SignInPage mode={route === 'sign-up' ? 'sign-up' : 'sign-in'} notice={session.notice} onSignedIn={signedIn} />
        </main>
        <LiveRegion />
      </>
    );
  }
  const page = route === 'sign-in' || route === 'sign-up' ? 'tasks' : route;
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('page-title')?.focus())}>
        Skip to content
      </a>
      <header class="bar-top">
        <p class="brand">Task Service</p>
        <Menu page={page} email={session.me?.email ?? ''} onSignOut={() => void signOut()} />
      </header>
      <main id="main">
        {page === 'tasks' && <TasksPage />}
        {page === 'connections' && <ConnectionsPage />}
        {page === 'tokens' && <TokensPage />}
        {page === 'apps' && <AppsPage />}
        {page === 'webhooks' && <WebhooksPage />}
        {page === 'usage' && <UsagePage />}
        {page === 'account' && session.me && <AccountPage email={session.me.email} onDeleted={() => (rememberSession(false), setSession({ state: 'signed-out', notice: 'Your account was deleted.' }))} />}
      </main>
      <LiveRegion />
    </>
  );
}
