/** Times are stored as epoch milliseconds in both databases and rendered as RFC 3339 UTC. */
export const toIso = (epochMs: number): string => new Date(epochMs).toISOString();
export const toIsoOrNull = (epochMs: number | null | undefined): string | null =>
  epochMs === null || epochMs === undefined ? null : toIso(epochMs);
