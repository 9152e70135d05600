import { createTaskClient, type TaskApiError } from '@task-service/sdk';

/** The one client of the app: the service's own origin, its session in an HttpOnly cookie (sdk/src/cookie-refresh.ts). */
export const client = createTaskClient({ baseUrl: location.origin, session: 'cookie' });

const signedOutListeners = new Set<() => void>();

/** The app shell listens here: an answer saying the session is gone sends the person back to sign in. */
export function onSessionLost(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/** What to say about a refusal: the service's own message, or when to try again after a 429 (never retried here). */
export function errorText(error: TaskApiError): string {
  if (error.status === 401 && error.code === 'UNAUTHENTICATED') for (const listener of signedOutListeners) listener();
  if (error.isRateLimited) return `Too many requests, try again in ${error.retryAfterSeconds ?? error.body?.retryAfterSeconds ?? 60} s.`;
  return error.message;
}

/** A refused form's `details`, by the field each names (`/body/title` is `title`). */
export function fieldErrors(error: TaskApiError | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const detail of error?.body?.details ?? []) {
    const field = detail.path.replace(/^\/(body|query)\/?/, '').split('/')[0] || 'form';
    fields[field] ??= detail.message;
  }
  return fields;
}

/** The change feed's poll, in milliseconds: 10 s, or `?pollMs=` for tests and demos. */
export function pollInterval(): number {
  const asked = Number(new URLSearchParams(location.search).get('pollMs'));
  return Number.isFinite(asked) && asked >= 200 ? asked : 10_000;
}
