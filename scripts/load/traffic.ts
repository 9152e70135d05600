import type { Instance } from './instances.js';

/** One request as a client saw it: when it left and returned, where it went, what came back. */
export interface Exchange {
  t0: number;
  t1: number;
  instance: number;
  /** `GET /tasks/{id}`: the method and the path with ids folded. */
  op: string;
  /** 0: no answer (refused, reset, timed out). */
  status: number;
  retryAfter: string | null;
  actor: string;
  /** Who the budgets count it against: `<account>` and `<account>/<client>`. */
  account: string | undefined;
  client: string | undefined;
}

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{3,}/g;

export const opOf = (method: string, url: URL) => `${method} ${url.pathname.replace(ID, '{id}')}`;

/** Every actor's requests go through here: each to an instance that is up, as a load balancer would send it. */
export class Traffic {
  readonly exchanges: Exchange[] = [];
  constructor(private readonly instances: Instance[]) {}

  pick(): Instance {
    const up = this.instances.filter((instance) => instance.up);
    const pool = up.length > 0 ? up : this.instances;
    return pool[Math.floor(Math.random() * pool.length)]!;
  }

  /** A fetch for the SDK (it hands a Request) and for raw calls, labelled with who sends it. */
  fetchFor(label: { actor: string; account?: string; client?: string; op?: (request: Request) => string }) {
    return async (input: Request | string, init?: RequestInit): Promise<Response> => {
      const request = typeof input === 'string' ? new Request(input, init) : input;
      const target = this.pick();
      const url = new URL(request.url);
      // As behind a load balancer (TRUST_PROXY=loopback): the public host forwarded, for MCP's DNS-rebinding check and the OAuth issuer.
      const headers = new Headers(request.headers);
      headers.set('x-forwarded-host', url.host);
      url.protocol = 'http:';
      url.host = `127.0.0.1:${target.port}`;
      const body = request.body ? await request.arrayBuffer() : undefined;
      const record: Exchange = {
        t0: Date.now(),
        t1: 0,
        instance: target.index,
        op: label.op?.(request) ?? opOf(request.method, url),
        status: 0,
        retryAfter: null,
        actor: label.actor,
        account: label.account,
        client: label.client,
      };
      this.exchanges.push(record);
      try {
        const response = await fetch(url, { method: request.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(20_000) });
        record.status = response.status;
        record.retryAfter = response.headers.get('retry-after');
        // The whole body read before the clock stops, as a client would.
        const bytes = await response.arrayBuffer();
        record.t1 = Date.now();
        return new Response(response.status === 204 || response.status === 304 ? null : bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
      } catch (err) {
        record.t1 = Date.now();
        throw err;
      }
    };
  }
}
