import type { components } from '../../generated/api.js';
import { toIso } from '../platform/time.js';
import type { AuthorizationSummary } from './authorizations.repository.js';

type Authorization = components['schemas']['AuthorizationList']['items'][number];

/** An app the account authorised, as the API shows it; `clientName` is null for a client no longer known. */
export function toAuthorization(summary: AuthorizationSummary, clientName: string | null | undefined): Authorization {
  return {
    clientId: summary.clientId,
    clientName: clientName ?? null,
    // Stored only from a checked consent: the scopes of the document.
    scopes: summary.scopes as Authorization['scopes'],
    authorizedAt: toIso(summary.authorizedAt),
  };
}
