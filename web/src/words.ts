import type { TaskApiError } from '@task-service/sdk';

/** The service's defaults (src/config.ts LOGIN_MAX_FAILED_ATTEMPTS, LOGIN_LOCKOUT_MINUTES): it does not publish them. */
const SIGN_IN_ATTEMPTS = 5;
const LOCK_MINUTES = 15;

/**
 * What the service's refusals mean to a person, by error code (docs/errors.md). Every page says a
 * refusal through `sayError`, so the same thing reads the same everywhere. `null` keeps the
 * service's own message: for those codes it is already a sentence a person reads (the quota's
 * numbers, the provider's refusal).
 */
const SENTENCES: Record<string, string | null | ((error: TaskApiError) => string)> = {
  VALIDATION_FAILED: 'Some of what you entered cannot be used: see the fields marked below.',
  UNAUTHENTICATED: 'Your session ended: sign in again.',
  TOKEN_EXPIRED: 'Your session ended: sign in again.',
  INVALID_REFRESH_TOKEN: 'Your session ended: sign in again.',
  REFRESH_TOKEN_REUSED: 'For your safety this session was ended: sign in again.',
  INVALID_CREDENTIALS: `The email or password is wrong. After ${SIGN_IN_ATTEMPTS} failed sign-ins in a row, sign-in is locked for ${LOCK_MINUTES} minutes.`,
  ACCOUNT_LOCKED: (error) => lockedSentence(secondsOf(error)),
  RATE_LIMIT_EXCEEDED: (error) => `Too many requests in a short time. Wait ${duration(secondsOf(error))} and try again.`,
  INSUFFICIENT_SCOPE: 'This session is not allowed to do that.',
  WEB_SESSION_REQUIRED: 'Sign in with your email and password to do this.',
  QUOTA_EXCEEDED: null,
  NOT_FOUND: 'That is no longer there: it may have been deleted on another device.',
  EMAIL_IN_USE: 'An account with this email already exists: sign in instead.',
  PAYLOAD_TOO_LARGE: 'That is too long to save. Shorten it and try again.',
  IDEMPOTENCY_KEY_REUSED: 'This was already sent with different contents. Try again.',
  PRECONDITION_FAILED: 'This changed on another device since you opened it.',
  CONNECTOR_AUTH_FAILED: 'The provider did not accept these credentials. Check them and try again.',
  CONNECTOR_UNAVAILABLE: 'The provider could not be reached. Check the address, or try again later.',
  SERVICE_UNAVAILABLE: 'The service is having trouble right now. Nothing was changed; try again in a moment.',
  INTERNAL_ERROR: 'Something went wrong on our side. Nothing was changed; try again.',
};

export const OFFLINE = 'The service could not be reached: check your connection. Nothing was lost; try again when you are back online.';

/** A refusal, a broken connection or a message of our own, as one sentence. */
export function sayError(error: unknown): string {
  if (typeof error === 'string') return error;
  if (isApiError(error)) {
    const sentence = SENTENCES[error.code];
    if (typeof sentence === 'function') return sentence(error);
    if (typeof sentence === 'string') return sentence;
    if (sentence === null) return error.message;
    return error.status >= 500 ? SENTENCES.INTERNAL_ERROR as string : 'That did not work. Try again.';
  }
  return OFFLINE;
}

export function isApiError(error: unknown): error is TaskApiError {
  return typeof error === 'object' && error !== null && typeof (error as TaskApiError).status === 'number' && 'code' in error;
}

/** A failure of the connection itself (fetch rejected), not an answer of the service. */
export function isNetworkFailure(error: unknown): boolean {
  return error !== undefined && error !== null && typeof error !== 'string' && !isApiError(error);
}

function secondsOf(error: TaskApiError): number {
  const told = error.retryAfterSeconds ?? (typeof error.body?.retryAfterSeconds === 'number' ? error.body.retryAfterSeconds : undefined);
  return told ?? 60;
}

export function lockedSentence(seconds: number, now = Date.now()): string {
  const opens = new Date(now + seconds * 1000).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });
  return `Too many failed sign-ins: sign-in for this email is locked until ${opens} (in ${duration(seconds)}), even with the right password.`;
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The fields the forms send, as a person calls them. */
const FIELD_NAMES: Record<string, string> = {
  title: 'The title',
  notes: 'The notes',
  priority: 'The priority',
  labels: 'Labels',
  dueAt: 'The due date',
  email: 'The email',
  password: 'The password',
  name: 'The name',
  scopes: 'Scopes',
  url: 'The address',
  token: 'The token',
  events: 'Events',
  description: 'The description',
};

/** A refused form's `details` by field (`/body/title` is `title`), each said in words, never the validator's. */
export function fieldErrors(error: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!isApiError(error)) return fields;
  for (const detail of error.body?.details ?? []) {
    const field = detail.path.replace(/^\/(body|query)\/?/, '').split('/')[0] || 'form';
    fields[field] ??= fieldSentence(field, detail.message);
  }
  return fields;
}

function fieldSentence(field: string, message: string): string {
  const name = FIELD_NAMES[field] ?? 'This';
  if (field === 'email') return 'Enter an email address such as name@example.com.';
  if (field === 'password' && /fewer|short|least/i.test(message)) return 'Use a password of at least 8 characters.';
  if (field === 'url') {
    if (/https/i.test(message)) return 'Use an https:// address of a server on the internet.';
    if (/private|loopback|address|reach|resolve/i.test(message)) return 'The service cannot send to this address: use a public https:// address.';
    return 'Enter a web address such as https://example.com/hook.';
  }
  if (/fewer than 1 |must match pattern|required|empty/i.test(message)) return `${name} cannot be empty.`;
  const most = /more than (\d+)/i.exec(message);
  if (most) return `${name} can be at most ${most[1]} ${/items/i.test(message) ? 'items' : 'characters'}.`;
  const least = /fewer than (\d+)/i.exec(message);
  if (least) return `${name} needs at least ${least[1]} ${/items/i.test(message) ? 'items' : 'characters'}.`;
  if (/duplicate|unique/i.test(message)) return `${name} has the same entry twice.`;
  if (/allowed values|enum/i.test(message)) return `${name}: choose one of the options.`;
  if (/date-time|format/i.test(message)) return `${name} is not a date and time we can read.`;
  return `${name} cannot be used as entered.`;
}

/** A sync job's `error` (the provider's side, written by the service) in words, without addresses or error numbers. */
export function syncProblem(error: string): string {
  if (/\b(401|403)\b|credential|token|unauthori[sz]ed|forbidden/i.test(error)) return 'The provider refused the credentials: connect the account again.';
  if (/\b404\b|not found/i.test(error)) return 'The provider says the feed or account is not there any more.';
  if (/reach|timed? ?out|E[A-Z]{4,}/.test(error)) return 'The provider could not be reached; the next sync tries again.';
  return 'The provider\'s answer could not be read; the next sync tries again.';
}
