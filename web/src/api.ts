import { createTaskClient, type TaskApiError } from '@task-service/sdk';

/** The one client of the app: the service's own origin, its session in an HttpOnly cookie (sdk/src/cookie-refresh.ts). */
export const client = createTaskClient({ baseUrl: location.origin, session: 'cookie' });

/**
 * Whether this browser signed in here and has not signed out: a flag in localStorage, so a page
 * load with no session does not ask `POST /auth/refresh` only to be refused. It holds no secret
 * (the refresh token stays in the HttpOnly cookie, unreadable by script), is never sent anywhere
 * (a cookie would travel with every request), and a wrong flag costs one refused refresh at most.
 */
const SIGNED_IN_FLAG = 'task-service:signed-in';

export function mayHaveSession(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_FLAG) === '1';
  } catch {
    return true;
  }
}

export function rememberSession(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_FLAG, '1');
    else localStorage.removeItem(SIGNED_IN_FLAG);
  } catch {
    // Storage refused (a private window's quota): the next load asks the service, as without the flag.
  }
}

const signedOutListeners = new Set<() => void>();

/** The app shell listens here: an answer saying the session is gone sends the person back to sign in. */
export function onSessionLost(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/** Tells the shell when an answer says the session is gone. */
export function noticeSessionLoss(error: TaskApiError | undefined): void {
  if (error?.status === 401 && (error.code === 'UNAUTHENTICATED' || error.code === 'INVALID_REFRESH_TOKEN')) {
    for (const listener of signedOutListeners) listener();
  }
}

/** The change feed's poll, in milliseconds: 10 s, or `?pollMs=` for tests and demos. */
export function pollInterval(): number {
  const asked = Number(new URLSearchParams(location.search).get('pollMs'));
  return Number.isFinite(asked) && asked >= 200 ? asked : 10_000;
}
