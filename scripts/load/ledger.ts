/** What the actors know they did, kept to check the stores against at the end. */
export interface AccountTally {
  id: string;
  email: string;
  /** Creates answered 201 (by the API, MCP or a sync's `created`). */
  created: number;
  /** Deletes answered 204. */
  deleted: number;
  /** Writes whose outcome the client never learned (no answer): each may or may not have happened. */
  unknown: number;
}

export interface SyncOutcome {
  account: string;
  fetched: number;
  created: number;
  updated: number;
  unchanged: number;
  droppedOverQuota: number;
  status: string;
}

export class Ledger {
  readonly accounts = new Map<string, AccountTally>();
  /** Task id -> the If-Match values its accepted conditional updates carried. */
  readonly conditionalWrites = new Map<string, string[]>();
  /** Account id -> the mirror kept from the change feed (task id -> version). */
  readonly mirrors: { account: string; actor: string; tasks: Map<string, number>; cursor: string | undefined; catchUp?: () => Promise<void> }[] = [];
  readonly syncs: SyncOutcome[] = [];
  /** Answers to the wrong-password attacker's logins: when and what. */
  readonly guesses: { t0: number; t1: number; status: number }[] = [];
  /** Webhooks made, with the receiver path they deliver to. */
  /** `changesBefore`: the account's change counter when the webhook was made; every later change is one event. */
  readonly webhooks: { id: string; account: string; path: string; behaviour: string; changesBefore: number }[] = [];
  /** Times the runaway script was told to wait, and whether it did. */
  readonly retryAfterHonoured = { told: 0, waited: 0 };

  tally(id: string, email = ''): AccountTally {
    let tally = this.accounts.get(id);
    if (!tally) this.accounts.set(id, (tally = { id, email, created: 0, deleted: 0, unknown: 0 }));
    return tally;
  }

  acceptedConditionalWrite(taskId: string, ifMatch: string): void {
    const seen = this.conditionalWrites.get(taskId) ?? [];
    seen.push(ifMatch);
    this.conditionalWrites.set(taskId, seen);
  }
}
