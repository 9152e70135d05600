import type { IncomingMessage } from 'node:http';
import { startHttpFake, type HttpFake } from './http-fake.js';

// A subscriber's endpoint on 127.0.0.1: it keeps every delivery as it arrived (raw body, headers), answers
// what the test says, and notes when two requests with the same webhook-id were open at once.

export interface ReceivedDelivery {
  path: string;
  id: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** What this receiver answered (null while it holds the request). */
  answered: number | null;
}

/** The status to answer, or 'hang' to hold the request open; `nth` counts this path's requests from 1. */
export type Answer = (delivery: ReceivedDelivery, nth: number) => number | 'hang';

export interface WebhookReceiver extends HttpFake {
  url: (path: string) => string;
  received: ReceivedDelivery[];
  /** Requests with a webhook-id another open request of the same id already had. */
  overlaps: number;
  answer: (path: string, answer: Answer) => void;
  /** Deliveries of `path` this receiver answered 2xx. */
  accepted: (path: string) => ReceivedDelivery[];
  waitFor: (check: () => boolean, what: string, timeoutMs?: number) => Promise<void>;
}

export async function startWebhookReceiver(options: { delayMs?: number } = {}): Promise<WebhookReceiver> {
  const answers = new Map<string, Answer>();
  const counts = new Map<string, number>();
  const open = new Map<string, number>();
  const received: ReceivedDelivery[] = [];
  let overlaps = 0;
  const fake = await startHttpFake((req, res, url) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      const delivery: ReceivedDelivery = { path: url.pathname, id, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: null };
      received.push(delivery);
      if ((open.get(id) ?? 0) > 0) overlaps += 1;
      open.set(id, (open.get(id) ?? 0) + 1);
      const nth = (counts.get(url.pathname) ?? 0) + 1;
      counts.set(url.pathname, nth);
      const status = (answers.get(url.pathname) ?? (() => 200))(delivery, nth);
      const close = () => open.set(id, (open.get(id) ?? 1) - 1);
      if (status === 'hang') {
        res.on('close', close);
        return;
      }
      const reply = () => {
        close();
        delivery.answered = status;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}: ${'x'.repeat(64)}`);
      };
      if (options.delayMs) setTimeout(reply, options.delayMs);
      else reply();
    });
  });
  return {
    ...fake,
    received,
    get overlaps() {
      return overlaps;
    },
    url: (path) => `${fake.origin}${path}`,
    answer: (path, answer) => answers.set(path, answer),
    accepted: (path) => received.filter((delivery) => delivery.path === path && delivery.answered !== null && delivery.answered < 300),
    waitFor: async (check, what, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
