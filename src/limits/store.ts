/** One fixed window of one subject: its store key, its limit, and when it ends (epoch ms). */
export interface WindowCharge {
  readonly key: string;
  readonly limit: number;
  readonly endsAt: number;
}

export interface StoreDecision {
  /** True when every window had budget; then one unit was spent in each. */
  readonly allowed: boolean;
  /** Count of each window, in order: after this request when allowed, as it stands otherwise. */
  readonly counts: readonly number[];
}

/**
 * Where window counts live. `spend` is one atomic check-and-spend over all the windows of a
 * request: it serves only when every window has budget and a rejection spends nothing.
 */
export interface RateLimitStore {
  spend(windows: readonly WindowCharge[], now: number): Promise<StoreDecision>;
  /** The counts as they stand, spending nothing. */
  peek(windows: readonly WindowCharge[], now: number): Promise<number[]>;
  close(): Promise<void>;
}
