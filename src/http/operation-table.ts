import type { operations } from '../../generated/api.js';
import { operationBudgetOf, type OperationBudget } from './operation-budgets.js';
import { MCP_PATH } from './resources.js';

export type OperationId = keyof operations;
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/**
 * How an operation's refusals are written (chosen from its documented 400 response):
 * - common: the common error body (the Error schema of openapi/openapi.yaml);
 * - oauth: RFC 6749 §5.2 bodies for its 400s (the token, revocation and device-authorisation endpoints);
 * - oauth-registration: RFC 7591 §3.2.2 bodies for its 400s (client registration);
 * - mcp: a refused `tools/call` becomes the tool's error result, everything else the common body.
 */
export type ErrorStyle = 'common' | 'oauth' | 'oauth-registration' | 'mcp';

/** One documented operation as its route is built: everything the chain is decided from. */
export interface OperationRoute {
  readonly operationId: OperationId;
  readonly method: HttpMethod;
  /** The document's path template, `/tasks/{taskId}`: the access log's route label. */
  readonly path: string;
  readonly budget: OperationBudget;
  /** The operation's security requirements (the document's default when it names none); empty: open to anyone. */
  readonly security: readonly SecurityRequirement[];
  /** The content types of its request body; empty when it takes none. */
  readonly bodyTypes: readonly string[];
  readonly bodyLimitBytes: number;
  readonly errorStyle: ErrorStyle;
  /** A server-rendered sign-in page (consent, device): page security headers, never shared with another origin. */
  readonly page: boolean;
  /** Whether the CORS step answers preflights and tells browsers of other origins they may read the answer. */
  readonly cors: boolean;
  /** Which protected resource a bearer token must be for (RFC 8707): the REST API or the MCP server. */
  readonly resource: 'api' | 'mcp';
}

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Sign-in, refresh and OAuth bodies: a few fields, far under this. */
export const SIGN_IN_BODY_LIMIT_BYTES = 16 * 1024;

const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch'];
const ERROR_STYLES: Readonly<Record<string, ErrorStyle>> = { OAuthError: 'oauth', OAuthRequestError: 'oauth', OAuthRegistrationError: 'oauth-registration' };
const PAGE_ERROR_RESPONSE = 'AuthorizationErrorPage';

type Json = Record<string, unknown>;

/** Every operation of the document in its order, read once at start-up: routes, budgets and MCP tools are built from these rows. */
export function operationTable(document: Json): readonly OperationRoute[] {
  const documentSecurity = (document.security ?? []) as SecurityRequirement[];
  const rows: OperationRoute[] = [];
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const definition = item[method] as Json | undefined;
      if (typeof definition?.operationId !== 'string') continue;
      const operationId = definition.operationId as OperationId;
      const responses = (definition.responses ?? {}) as Record<string, Json>;
      const badRequest = refName(responses['400']);
      rows.push(
        Object.freeze({
          operationId,
          method,
          path,
          budget: operationBudgetOf(operationId, definition),
          security: Object.freeze((definition.security ?? documentSecurity) as SecurityRequirement[]),
          bodyTypes: Object.freeze(Object.keys(((definition.requestBody as Json | undefined)?.content ?? {}) as Json)),
          // The sign-in, refresh and OAuth endpoints take a few form or JSON fields.
          bodyLimitBytes: /^\/(auth|oauth)\//.test(path) ? SIGN_IN_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES,
          errorStyle: path === MCP_PATH ? 'mcp' : (ERROR_STYLES[badRequest ?? ''] ?? 'common'),
          page: badRequest === PAGE_ERROR_RESPONSE,
          // /metrics is for scrapers, not browsers: no origin is told it may read it.
          cors: badRequest !== PAGE_ERROR_RESPONSE && path !== '/metrics',
          resource: path === MCP_PATH ? 'mcp' : 'api',
        }),
      );
    }
  }
  return Object.freeze(rows);
}

/** The rows grouped by path, in document order: a path's methods, for its 405. */
export function byPath(table: readonly OperationRoute[]): Map<string, OperationRoute[]> {
  const paths = new Map<string, OperationRoute[]>();
  for (const row of table) paths.set(row.path, [...(paths.get(row.path) ?? []), row]);
  return paths;
}

function refName(response: Json | undefined): string | undefined {
  const ref = response?.$ref;
  return typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : undefined;
}
