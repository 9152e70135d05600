import { parseRetryAfter, DEFAULT_RETRY_AFTER_SECONDS } from '@task-service/sdk';

type Send = (request: Request) => Promise<Response>;

export interface ThrottleNotice {
  window: string | undefined;
  seconds: number;
}

/** What a 429 said: the window (from the body) and the wait (Retry-After, 60 s when absent). */
export async function readThrottle(response: Response): Promise<ThrottleNotice> {
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { window?: unknown; retryAfterSeconds?: unknown } | undefined;
  const header = parseRetryAfter(response.headers.get('retry-after'));
  const fromBody = typeof body?.retryAfterSeconds === 'number' ? body.retryAfterSeconds : undefined;
  return {
    window: typeof body?.window === 'string' ? body.window : undefined,
    seconds: Math.max(1, header ?? fromBody ?? DEFAULT_RETRY_AFTER_SECONDS),
  };
}

/**
 * On 429, waits what the server asks (never less, so never a tight loop) and tries again, as long
 * as the waits add up to at most `maxWaitSeconds`; past that the 429 is handed back to be reported.
 */
export function waitingOnThrottle(send: Send, maxWaitSeconds: number, wait: (notice: ThrottleNotice) => Promise<void>): Send {
  return async (request) => {
    let waited = 0;
    for (;;) {
      const copy = request.clone();
      const response = await send(request);
      if (response.status !== 429) return response;
      const notice = await readThrottle(response);
      if (waited + notice.seconds > maxWaitSeconds) return response;
      await response.body?.cancel();
      await wait(notice);
      waited += notice.seconds;
      request = copy;
    }
  };
}

/** Words for the windows of the 429 body (docs/rate-limits.md). */
export function describeWindow(window: string | undefined): string {
  const [budget, kind] = (window ?? '').split('-');
  const per = kind === 'sustained' ? 'per hour' : 'per minute';
  switch (budget) {
    case 'client':
      return `taskctl's own request budget on this account (${window}: requests ${per})`;
    case 'account':
      return `this account's request budget (${window}: requests ${per}, all its apps and tokens together)`;
    case 'strict':
      return `the sign-in budget of this address (${window})`;
    case 'refresh':
      return `the token refresh budget (${window})`;
    case 'anonymous':
      return `the budget for requests without sign-in from this address (${window})`;
    default:
      return window ? `the ${window} window` : 'a rate-limit window';
  }
}

/** A countdown on a terminal (one line rewritten every second), one plain line otherwise. */
export async function countdown(notice: ThrottleNotice, stream: NodeJS.WriteStream): Promise<void> {
  const what = `Rate limited: ${describeWindow(notice.window)} is used up.`;
  if (!stream.isTTY) {
    stream.write(`${what} Waiting ${notice.seconds} s before trying again.\n`);
    await sleep(notice.seconds * 1000);
    return;
  }
  for (let left = notice.seconds; left > 0; left--) {
    stream.write(`\r\x1b[K${what} Trying again in ${left} s (Ctrl-C to stop)`);
    await sleep(1000);
  }
  stream.write('\r\x1b[K');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
