import { randomUUID } from 'node:crypto';
import { OutboundError, type SafeFetch } from '../connectors/connectors.component.js';
import type { Db } from '../platform/db.js';
import type { Logger } from '../platform/logger.js';
import { knexTransaction } from '../platform/transaction.js';
import { claimDue, recordAttempt, recordSuccesses, releaseClaim, type AttemptOutcome, type ClaimedDelivery } from './deliveries.repository.js';
import { MAX_ATTEMPTS, nextAttemptAt } from './retry-schedule.js';
import { signatureHeader } from './webhook-signing.js';
import { countFailedDelivery, disableWebhook, resetFailedDeliveries } from './webhooks.repository.js';

/** Failed deliveries in a row (each after all its retries) that turn a webhook off. */
export const FAILED_IN_A_ROW_LIMIT = 20;
// Longer than the 10 s an attempt may take (safe-fetch's deadline): a live sender's lease never lapses mid-send.
const LEASE_MS = 15_000;
const POLL_EVERY_MS = 250;
// A nudge waits this long, so the events of a burst of writes are claimed together, in one query,
// rather than one claim per write on the connection the next request needs.
const NUDGE_DELAY_MS = 25;
// Successes are recorded together: at most this many, at most this long after the first.
const SUCCESS_BATCH = 32;
const SUCCESS_BATCH_MS = 5;

export interface DeliveryWorkerOptions {
  db: Db;
  logger: Logger;
  fetch: Pick<SafeFetch, 'post'>;
  concurrency: number;
  /** WEBHOOK_RETRY_SCALE. */
  retryScale: number;
  /** How each attempt ended, for the metrics. */
  onAttempt?: (outcome: 'succeeded' | 'retry' | 'failed' | 'lost', seconds: number) => void;
}

export interface DeliveryWorker {
  start: () => void;
  /** Stops claiming; lets attempts in flight finish for a moment; the rest go back unsent. */
  stop: () => Promise<void>;
  /** Something became due: look now rather than at the next poll. */
  nudge: () => void;
}

/**
 * Sends due deliveries with at most `concurrency` in flight. The store decides who sends what (claimDue
 * in deliveries.repository.ts): several instances share the work, none sends an attempt another holds.
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { db, logger } = options;
  const runnerId = randomUUID();
  const inFlight = new Map<string, Promise<void>>();
  const stopping = new AbortController();
  let started = false;
  let claiming = false;
  let again = false;
  // The last claim filled every free slot: more may be due, so finished sends refill.
  let backlogged = false;
  let timer: NodeJS.Timeout | undefined;
  let successes: { delivery: ClaimedDelivery; statusCode: number; seconds: number; done: () => void }[] = [];
  let successTimer: NodeJS.Timeout | undefined;
  let nudgeTimer: NodeJS.Timeout | undefined;

  /** Records the waiting successes in one statement; the sends they belong to finish after it. */
  async function flushSuccesses(): Promise<void> {
    clearTimeout(successTimer);
    successTimer = undefined;
    const batch = successes;
    successes = [];
    if (batch.length === 0) return;
    try {
      const recorded = new Set(await recordSuccesses(db, runnerId, batch.map(({ delivery, statusCode }) => ({ id: delivery.id, statusCode }))));
      for (const { delivery, seconds } of batch) {
        const mine = recorded.has(delivery.id);
        if (mine && delivery.failedInARow > 0) await resetFailedDeliveries(db, delivery.webhookId);
        options.onAttempt?.(mine ? 'succeeded' : 'lost', seconds);
      }
    } catch (err) {
      // The leases lapse and the attempts are taken again: at least once, never lost.
      logger.warn({ err, deliveries: batch.length }, 'could not record webhook deliveries');
    } finally {
      for (const { done } of batch) done();
    }
  }

  function succeeded(delivery: ClaimedDelivery, statusCode: number, seconds: number): Promise<void> {
    return new Promise((done) => {
      successes.push({ delivery, statusCode, seconds, done });
      if (successes.length >= SUCCESS_BATCH) void flushSuccesses();
      else successTimer ??= setTimeout(() => void flushSuccesses(), SUCCESS_BATCH_MS);
    });
  }

  async function fill(): Promise<void> {
    if (!started || stopping.signal.aborted) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    try {
      do {
        again = false;
        const free = options.concurrency - inFlight.size;
        if (free <= 0) {
          backlogged = true;
          break;
        }
        const claimed = await claimDue(db, runnerId, Date.now(), LEASE_MS, free);
        backlogged = claimed.length === free;
        for (const delivery of claimed) {
          const done = send(delivery).finally(() => {
            inFlight.delete(delivery.id);
            // With a backlog, refill once half the slots are free, not after every send: one claim per
            // batch. Without one, a finished send has nothing to claim: new events nudge (outbox.ts),
            // and retries and other instances' events come due at the next poll.
            if (backlogged && inFlight.size <= options.concurrency / 2) void fill();
          });
          inFlight.set(delivery.id, done);
        }
        if (backlogged) again = true;
      } while (again && !stopping.signal.aborted);
    } catch (err) {
      logger.warn({ err }, 'could not claim webhook deliveries');
    } finally {
      claiming = false;
    }
  }

  async function send(delivery: ClaimedDelivery): Promise<void> {
    const started = performance.now();
    const claim = { id: delivery.id, runnerId, attempt: delivery.attempt };
    const timestamp = Math.floor(Date.now() / 1000);
    const secrets = [delivery.secret];
    if (delivery.previousSecret && (delivery.previousSecretUntil ?? 0) > Date.now()) secrets.push(delivery.previousSecret);
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await options.fetch.post(delivery.url, {
        body: delivery.payload,
        signal: stopping.signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'task-service-webhooks/0.1',
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, delivery.eventId, timestamp, delivery.payload),
        },
      });
      statusCode = response.status;
    } catch (err) {
      if (stopping.signal.aborted) {
        // Not known to have arrived: give the attempt back, due again at once for any instance.
        await releaseClaim(db, claim).catch(() => undefined);
        return;
      }
      error = failureReason(err);
    }
    try {
      await record(delivery, claim, statusCode, error, (performance.now() - started) / 1000);
    } catch (err) {
      // The lease lapses and the attempt is taken again: at least once, never lost.
      logger.warn({ err, deliveryId: delivery.id }, 'could not record a webhook attempt');
    }
  }

  async function record(delivery: ClaimedDelivery, claim: { id: string; runnerId: string; attempt: number }, statusCode: number | null, error: string | null, seconds: number) {
    const now = Date.now();
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) return succeeded(delivery, statusCode, seconds);
    const reason = error ?? answeredReason(statusCode!);
    if (statusCode === 410) {
      const mine = await knexTransaction(db, async (trx) => {
        if (!(await recordAttempt(trx, claim, { status: 'failed', statusCode, error: reason }))) return false;
        await disableWebhook(trx, delivery.webhookId, 'The receiver answered 410 Gone.', now);
        return true;
      });
      return options.onAttempt?.(mine ? 'failed' : 'lost', seconds);
    }
    const next = delivery.attempt < MAX_ATTEMPTS ? nextAttemptAt(delivery.attempt, now, options.retryScale) : null;
    if (next !== null) {
      const mine = await recordAttempt(db, claim, { status: 'pending', statusCode, error: reason, nextAttemptAt: next });
      return options.onAttempt?.(mine ? 'retry' : 'lost', seconds);
    }
    const mine = await knexTransaction(db, async (trx) => {
      if (!(await recordAttempt(trx, claim, { status: 'failed', statusCode, error: reason } satisfies AttemptOutcome))) return false;
      if ((await countFailedDelivery(trx, delivery.webhookId)) >= FAILED_IN_A_ROW_LIMIT) {
        await disableWebhook(trx, delivery.webhookId, `${FAILED_IN_A_ROW_LIMIT} deliveries in a row failed after all their retries.`, now);
      }
      return true;
    });
    options.onAttempt?.(mine ? 'failed' : 'lost', seconds);
  }

  return {
    nudge() {
      if (!started || stopping.signal.aborted || nudgeTimer) return;
      nudgeTimer = setTimeout(() => {
        nudgeTimer = undefined;
        void fill();
      }, NUDGE_DELAY_MS);
    },
    start() {
      if (started) return;
      started = true;
      timer = setInterval(() => void fill(), POLL_EVERY_MS);
      timer.unref();
      void fill();
    },
    async stop() {
      clearInterval(timer);
      clearTimeout(nudgeTimer);
      const graceful = Promise.all(inFlight.values());
      const graceOver = new Promise((resolve) => setTimeout(resolve, 2_000).unref());
      await Promise.race([graceful, graceOver]);
      stopping.abort();
      await flushSuccesses();
      await Promise.all(inFlight.values());
    },
  };
}

/** A short reason of ours; never what the receiver sent. */
function answeredReason(status: number): string {
  if (status >= 300 && status < 400) return `The receiver answered ${status}, a redirect; redirects are not followed.`;
  return `The receiver answered ${status}.`;
}

function failureReason(err: unknown): string {
  if (err instanceof OutboundError) {
    if (err.failure === 'timeout') return 'The receiver did not answer within 10 s.';
    if (err.failure === 'blocked-address') return 'The URL leads to an address webhooks may not reach (loopback, private or link-local).';
    if (err.failure === 'unsupported-url') return 'The URL is not an http or https address.';
    const code = /\(([A-Z0-9_]+)\)\.$/.exec(err.message)?.[1];
    return code ? `The receiver could not be reached (${code}).` : 'The receiver could not be reached.';
  }
  return 'The delivery failed inside the server.';
}
