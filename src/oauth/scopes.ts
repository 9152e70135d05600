import { ALL_SCOPES, grantedByDefault, type Scope } from '../http/caller.js';

export type ScopeResolution = { ok: true; scopes: Scope[] } | { ok: false; unknown: string[]; beyond: string[] };

const isScope = (name: string): name is Scope => (ALL_SCOPES as readonly string[]).includes(name);

/** Space-separated names (RFC 6749 §3.3), without empties or repeats. */
export function splitScope(scope: string | undefined): string[] {
  return [...new Set((scope ?? '').split(' ').filter((name) => name.length > 0))];
}

/**
 * What an authorisation request gets: the named scopes when every one is known and within what the
 * client registered; with no scope named, everything the client registered but tokens:manage and webhooks:manage (granted only by name). Unknown names are refused
 * rather than dropped, so a client never believes it holds a scope it does not.
 */
export function resolveScopes(requested: string | undefined, registered: readonly Scope[]): ScopeResolution {
  const names = splitScope(requested);
  if (names.length === 0) return { ok: true, scopes: grantedByDefault(ALL_SCOPES).filter((scope) => registered.includes(scope)) };
  const unknown = names.filter((name) => !isScope(name));
  const beyond = names.filter((name) => isScope(name) && !registered.includes(name));
  if (unknown.length > 0 || beyond.length > 0) return { ok: false, unknown, beyond };
  // In the canonical order, so the same grant always reads the same.
  return { ok: true, scopes: ALL_SCOPES.filter((scope) => names.includes(scope)) };
}

/** A registered `scope` value: known names only, or undefined when any is unknown. */
export function parseRegisteredScope(scope: string): Scope[] | undefined {
  const names = splitScope(scope);
  if (!names.every(isScope)) return undefined;
  return ALL_SCOPES.filter((known) => names.includes(known));
}

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'tasks:read': 'See your tasks',
  'tasks:write': 'Create, change and delete your tasks',
  'connectors:read': 'See your connected accounts and sync jobs',
  'connectors:write': 'Connect and disconnect accounts and start syncs',
  'tokens:manage': 'See, create and revoke your API tokens and the apps you authorised',
  'webhooks:manage': 'Send your changes to its server (webhooks) and see what was sent',
};
