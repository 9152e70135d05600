import type { ZodError } from 'zod';
import type { components } from '../../generated/api.js';
import { errors, type AppError } from '../platform/errors.js';
import type { ExternalTask } from '../tasks/tasks.component.js';
import { OutboundError, type SafeFetch } from './safe-fetch.js';

export type ConnectorType = components['schemas']['ConnectorType'];

/** Who the credentials belong to at the provider: the same identity connected twice is one account. */
export interface ExternalIdentity {
  externalId: string;
  displayName: string;
}

/** Credentials read and checked for one connector type, ready to talk to the provider. */
export interface Connection {
  /** What is sealed and stored: the normalised credentials. */
  readonly credentials: object;
  identify: (signal?: AbortSignal) => Promise<ExternalIdentity>;
  /** The provider's items, page by page. */
  items: (signal: AbortSignal) => AsyncIterable<ExternalTask[]>;
}

export interface ConnectorTools {
  fetch: SafeFetch;
  /** A keyed digest, for identities that must not show a secret. */
  digest: (purpose: string, value: string) => string;
}

export interface ConnectorDefinition {
  type: ConnectorType;
  name: string;
  /** Reads credentials (a connect body or a stored row); a wrong shape is a 400 naming the field. */
  open: (credentials: unknown, tools: ConnectorTools) => Connection;
}

/**
 * How a provider call went wrong: `refused` (credentials or address unusable: 422 on connect),
 * `unavailable` (could not be reached or answered nonsense: 502), `rate-limited` (502, and the
 * job fails rather than retrying), `blocked-address` (a private address: 400 on connect).
 */
export type ProviderFailure = 'refused' | 'unavailable' | 'rate-limited' | 'blocked-address';

export class ProviderError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    message: string,
    /** The credentials field the failure is about (for blocked addresses). */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** What a connect request answers when the provider call failed. */
export function toConnectError(err: unknown): unknown {
  if (!(err instanceof ProviderError)) return err;
  switch (err.failure) {
    case 'refused':
      return errors.connectorAuthFailed(err.message);
    case 'blocked-address':
      return errors.validation([{ path: `/body/${err.field ?? 'url'}`, message: err.message }], err.message);
    default:
      return errors.connectorUnavailable(err.message);
  }
}

/** A failed outgoing call as a provider error; `fieldOfAddress` names the credentials field that holds the address. */
export function fromOutboundError(err: unknown, fieldOfAddress: string, provider: string): unknown {
  if (!(err instanceof OutboundError)) return err;
  switch (err.failure) {
    case 'blocked-address':
      return new ProviderError('blocked-address', err.message, fieldOfAddress);
    case 'timeout':
    case 'unreachable':
      return new ProviderError('unavailable', `${provider} could not be reached: ${err.message}`);
    default:
      return new ProviderError('unavailable', `${provider} answered unusably: ${err.message}`);
  }
}

/** A zod failure of a connect body as the 400 every validation failure gets, naming the fields. */
export function credentialsShapeError(type: ConnectorType, error: ZodError, takes: string): AppError {
  const details = error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: `/body/${key}`, message: `is not a field of a ${type} account` }));
    }
    const path = `/body${issue.path.map((part) => `/${String(part)}`).join('')}`;
    return [{ path, message: issue.message }];
  });
  return errors.validation(details, `These are not ${type} credentials: a ${type} account takes ${takes}.`);
}

export function splitIntoPages<T>(items: T[], size: number): T[][] {
  const pages: T[][] = [];
  for (let start = 0; start < items.length; start += size) pages.push(items.slice(start, start + size));
  return pages;
}
