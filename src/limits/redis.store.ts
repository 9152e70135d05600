import { createHash } from 'node:crypto';
import type { RedisCommands } from '../platform/redis.js';
import type { RateLimitStore, StoreDecision, WindowCharge } from './store.js';

/**
 * KEYS: the windows of one request. ARGV: their limits, then their lifetimes in ms.
 * Serves only if every window has budget, then spends one unit in each; a rejection writes
 * nothing. Returns { allowed (1|0), count of each window }.
 */
export const SPEND_SCRIPT = `
local n = #KEYS
local counts = redis.call('MGET', unpack(KEYS))
local allowed = 1
for i = 1, n do
  counts[i] = tonumber(counts[i]) or 0
  if counts[i] >= tonumber(ARGV[i]) then allowed = 0 end
end
if allowed == 1 then
  for i = 1, n do
    counts[i] = redis.call('INCR', KEYS[i])
    if counts[i] == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[n + i]) end
  end
end
table.insert(counts, 1, allowed)
return counts
`;

const SPEND_SHA = createHash('sha1').update(SPEND_SCRIPT).digest('hex');

/**
 * A window key outlives its window by this much: the key carries the window's index, so a late
 * expiry never counts into the next window, and a Redis clock a little ahead of ours cannot
 * expire a live window early.
 */
const EXPIRY_GRACE_MS = 60_000;

/** Window counts in Redis: one round trip (EVALSHA of one script) per decision. */
export class RedisStore implements RateLimitStore {
  constructor(
    private readonly client: RedisCommands,
    /** Put before every window key (REDIS_KEY_PREFIX and `rl:`). */
    private readonly keyPrefix: string,
  ) {}

  /** Loads the script; called on every (re)connection, since a restarted Redis forgets it. */
  static async loadScript(client: RedisCommands): Promise<void> {
    await client.scriptLoad(SPEND_SCRIPT);
  }

  async spend(windows: readonly WindowCharge[], now: number): Promise<StoreDecision> {
    const keys = windows.map((window) => this.keyPrefix + window.key);
    const args = [
      ...windows.map((window) => String(window.limit)),
      ...windows.map((window) => String(window.endsAt - now + EXPIRY_GRACE_MS)),
    ];
    let reply: unknown;
    try {
      reply = await this.client.evalSha(SPEND_SHA, { keys, arguments: args });
    } catch (err) {
      // A Redis restarted (or flushed with SCRIPT FLUSH) since we loaded it: EVAL caches it again.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      reply = await this.client.eval(SPEND_SCRIPT, { keys, arguments: args });
    }
    const numbers = toIntegers(reply, windows.length + 1);
    return { allowed: numbers[0] === 1, counts: numbers.slice(1) };
  }

  async peek(windows: readonly WindowCharge[]): Promise<number[]> {
    const values = await this.client.mGet(windows.map((window) => this.keyPrefix + window.key));
    return values.map((value) => (value === null ? 0 : Number(value)));
  }

  async close(): Promise<void> {}
}

function toIntegers(reply: unknown, length: number): number[] {
  if (!Array.isArray(reply) || reply.length !== length || !reply.every((item) => typeof item === 'number')) {
    throw new Error('Unexpected reply from the rate-limit script');
  }
  return reply as number[];
}
