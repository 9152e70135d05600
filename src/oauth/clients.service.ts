import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import { ALL_SCOPES, type Scope } from '../http/caller.js';
import { errors } from '../platform/errors.js';
import type { ClientsRepository, OAuthClientRow } from './clients.repository.js';
import { createClientMetadataDocuments, isDocumentUrl, type FetchDocument } from './client-metadata-documents.js';
import { checkRedirectUri } from './redirect-uris.js';
import { parseRegisteredScope } from './scopes.js';

type Schemas = components['schemas'];
export type RegistrationRequest = Schemas['OAuthClientRegistrationRequest'];
export type Registration = Schemas['OAuthClientRegistration'];

/** A public client as the authorisation server sees it. */
export interface OAuthClient {
  id: string;
  name: string | null;
  redirectUris: readonly string[];
  /** What the client may ask for, and gets when it names no scope. */
  scopes: readonly Scope[];
  /** True for the clients we ship (taskctl): their name is ours, not one an app chose for itself. */
  verified?: boolean;
}

/** An RFC 7591 §3.2.2 refusal: rendered as `{ error, error_description }` by the registration endpoint. */
const registrationRefused = (error: 'invalid_redirect_uri' | 'invalid_client_metadata', description: string) => errors.oauth(400, error, description);

/** The command-line client, built in: loopback redirects on any port (RFC 8252 §7.3). */
export const TASKCTL: OAuthClient = Object.freeze({
  id: 'taskctl',
  name: 'taskctl (command line)',
  redirectUris: Object.freeze(['http://127.0.0.1/callback', 'http://[::1]/callback']),
  scopes: ALL_SCOPES,
  verified: true,
});
const BUILT_IN = new Map([[TASKCTL.id, TASKCTL]]);

const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const MAX_REDIRECT_URIS = 10;
const MAX_REDIRECT_URI_LENGTH = 2048;
const MAX_NAME_LENGTH = 200;

export interface Clients {
  find: (clientId: string) => Promise<OAuthClient | undefined>;
  /** Registers a public client (RFC 7591), or throws its RFC 7591 refusal (an OAuthError). */
  register: (request: RegistrationRequest) => Promise<Registration>;
  /** Display names, built-in clients included; null for clients that gave none. */
  names: (clientIds: readonly string[]) => Promise<Map<string, string | null>>;
}

/** Looks up client metadata documents (an https client_id); without it, such client_ids are unknown. */
export type FetchClientDocument = FetchDocument;

export function createClients(repository: ClientsRepository, fetchDocument?: FetchDocument, onDocumentRefused?: (clientId: string, reason: string) => void): Clients {
  const documents = fetchDocument && createClientMetadataDocuments(fetchDocument, (metadata) => {
    const { redirectUris, scopes, name } = checkMetadata(metadata as RegistrationRequest);
    return { redirectUris, scopes: scopes ?? ALL_SCOPES, name };
  });
  const findDocument = async (clientId: string) => {
    const outcome = await documents!.find(clientId);
    if (outcome.ok) return outcome.client;
    onDocumentRefused?.(clientId, outcome.reason);
    return undefined;
  };
  return {
    find: async (clientId) => {
      const builtIn = BUILT_IN.get(clientId);
      if (builtIn) return builtIn;
      if (documents && isDocumentUrl(clientId)) return findDocument(clientId);
      return fromRow(await repository.find(clientId));
    },

    register: async (request) => {
      const { redirectUris, scopes, name, applicationType } = checkMetadata(request);
      const row: OAuthClientRow = {
        client_id: randomUUID(),
        client_name: name ?? null,
        redirect_uris: JSON.stringify(redirectUris),
        scope: scopes ? scopes.join(' ') : null,
        created_at: Date.now(),
      };
      await repository.insert(row);
      return {
        client_id: row.client_id,
        client_id_issued_at: Math.floor(row.created_at / 1000),
        ...(name !== undefined ? { client_name: name } : {}),
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'none',
        grant_types: GRANT_TYPES,
        response_types: ['code'],
        scope: (scopes ?? ALL_SCOPES).join(' '),
        application_type: applicationType,
      };
    },

    names: async (clientIds) => {
      const names = await repository.names(clientIds.filter((id) => !BUILT_IN.has(id)));
      for (const id of clientIds) {
        const builtIn = BUILT_IN.get(id);
        if (builtIn) names.set(id, builtIn.name);
      }
      return names;
    },
  };
}

function checkMetadata(request: RegistrationRequest) {
  const refuse = (description: string) => registrationRefused('invalid_client_metadata', description);
  if (request.token_endpoint_auth_method !== undefined && request.token_endpoint_auth_method !== 'none') {
    throw refuse('Only public clients can register: token_endpoint_auth_method must be "none".');
  }
  const grantTypes = request.grant_types ?? GRANT_TYPES;
  if (!grantTypes.includes('authorization_code') || grantTypes.some((grant) => !GRANT_TYPES.includes(grant))) {
    throw refuse('grant_types may list authorization_code and refresh_token only, and must include authorization_code.');
  }
  const responseTypes = request.response_types ?? ['code'];
  if (responseTypes.length === 0 || responseTypes.some((type) => type !== 'code')) {
    throw refuse('response_types may list "code" only.');
  }
  if (request.client_name !== undefined && request.client_name.length > MAX_NAME_LENGTH) {
    throw refuse(`client_name is longer than ${MAX_NAME_LENGTH} characters.`);
  }
  const scopes = request.scope === undefined ? undefined : parseRegisteredScope(request.scope);
  if (request.scope !== undefined && (!scopes || scopes.length === 0)) {
    throw refuse(`scope must name some of: ${ALL_SCOPES.join(' ')}.`);
  }
  const redirectUris = checkRedirectUris(request.redirect_uris);
  return { redirectUris, scopes, name: request.client_name, applicationType: checkApplicationType(request.application_type, redirectUris) };
}

/**
 * OpenID Connect Dynamic Client Registration's `application_type`, as docs/signing-in.md has it: a native app
 * returns to loopback http or a private-use scheme, a web app to https. Absent, the redirect URIs decide.
 */
function checkApplicationType(given: string | undefined, redirectUris: readonly string[]): 'native' | 'web' {
  const allHttps = redirectUris.every((uri) => uri.startsWith('https:'));
  if (given === undefined) return allHttps ? 'web' : 'native';
  if (given === 'web') {
    if (!allHttps) throw registrationRefused('invalid_redirect_uri', 'A web application returns to https redirect URIs only.');
    return 'web';
  }
  if (given === 'native') {
    if (redirectUris.some((uri) => uri.startsWith('https:'))) {
      throw registrationRefused('invalid_redirect_uri', 'A native application returns to loopback http or a private-use scheme, not https.');
    }
    return 'native';
  }
  throw registrationRefused('invalid_client_metadata', 'application_type must be "native" or "web".');
}

function checkRedirectUris(uris: readonly string[] | undefined): string[] {
  const refuse = (description: string) => registrationRefused('invalid_redirect_uri', description);
  if (!uris || uris.length === 0) throw refuse('redirect_uris must list at least one URI.');
  if (uris.length > MAX_REDIRECT_URIS) throw refuse(`redirect_uris may list at most ${MAX_REDIRECT_URIS} URIs.`);
  for (const uri of uris) {
    if (uri.length > MAX_REDIRECT_URI_LENGTH) throw refuse(`A redirect URI is longer than ${MAX_REDIRECT_URI_LENGTH} characters.`);
    const check = checkRedirectUri(uri);
    if (!check.ok) throw refuse(`${uri}: ${check.reason}.`);
  }
  return [...new Set(uris)];
}

function fromRow(row: OAuthClientRow | undefined): OAuthClient | undefined {
  if (!row) return undefined;
  return {
    id: row.client_id,
    name: row.client_name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    scopes: row.scope === null ? ALL_SCOPES : (parseRegisteredScope(row.scope) ?? []),
  };
}
