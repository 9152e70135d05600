import { describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../http/caller.js';
import { readOpenApiDocument } from '../http/openapi-document.js';
import { parseRegisteredScope, resolveScopes } from './scopes.js';

describe('resolving the scopes of an authorisation request', () => {
  it('without a scope, grants what the client registered but tokens:manage and webhooks:manage', () => {
    expect(resolveScopes(undefined, ALL_SCOPES)).toEqual({ ok: true, scopes: ['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write'] });
    expect(resolveScopes('', ['tasks:read'])).toEqual({ ok: true, scopes: ['tasks:read'] });
  });

  it('grants the named scopes in canonical order, ignoring repeats and extra spaces', () => {
    expect(resolveScopes('tasks:write  tasks:read tasks:write', ALL_SCOPES)).toEqual({ ok: true, scopes: ['tasks:read', 'tasks:write'] });
  });

  it('refuses unknown names and names beyond the registration, naming them', () => {
    expect(resolveScopes('tasks:read openid', ALL_SCOPES)).toEqual({ ok: false, unknown: ['openid'], beyond: [] });
    expect(resolveScopes('tasks:read tasks:write', ['tasks:read'])).toEqual({ ok: false, unknown: [], beyond: ['tasks:write'] });
  });
});

describe('a registered scope', () => {
  it('is known names only', () => {
    expect(parseRegisteredScope('connectors:read tasks:read')).toEqual(['tasks:read', 'connectors:read']);
    expect(parseRegisteredScope('tasks:read admin')).toBeUndefined();
  });
});

describe('the registration scope the document states', () => {
  it('takes every scope the service has, alone and all together, so a new scope is never refused at registration', () => {
    const document = readOpenApiDocument().document as { components: { schemas: Record<string, { properties: Record<string, { pattern: string }> }> } };
    const pattern = new RegExp(document.components.schemas.OAuthClientRegistrationRequest!.properties.scope!.pattern);
    for (const scope of ALL_SCOPES) expect(pattern.test(scope)).toBe(true);
    expect(pattern.test(ALL_SCOPES.join(' '))).toBe(true);
    expect(pattern.test('tasks:read admin')).toBe(false);
  });
});
