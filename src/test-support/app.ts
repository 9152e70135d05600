import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request } from 'express';
import { onTestFinished } from 'vitest';
import { createApp, type AppParts } from '../app.js';
import type { Caller } from '../http/caller.js';
import { readOpenApiDocument } from '../http/openapi-document.js';
import { operationTable } from '../http/operation-table.js';
import { ownResponse, type OperationEntry } from '../http/operations.js';
import { ANONYMOUS, type Identity } from '../http/request-state.js';
import { errors } from '../platform/errors.js';

const openApi = readOpenApiDocument();

/**
 * An app of the given parts for in-process tests of one piece: the operations it is not given answer
 * 500 (the real service refuses to start without them), the pages and /mcp get no guards of their own.
 */
export function createTestApp(parts: Omit<AppParts, 'openApi' | 'table' | 'pageHeaders' | 'mcpGuard'>) {
  const given = new Set(parts.operations.map((entry) => entry.operationId));
  const table = operationTable(openApi.document);
  const missing: OperationEntry[] = table
    .filter((row) => !given.has(row.operationId) && !OWN_OPERATIONS.has(row.operationId))
    .map((row) => ownResponse(row.operationId, (_req, _res, next) => next(errors.internal())));
  return createApp({
    openApi,
    table,
    pageHeaders: (_req, _res, next) => next(),
    mcpGuard: (_req, _res, next) => next(),
    ...parts,
    operations: [...parts.operations, ...missing],
  });
}

/** Served by the app itself: the docs, the probes and /metrics. */
const OWN_OPERATIONS = new Set(['getOpenApiJson', 'getOpenApiYaml', 'getDocs', 'getDocsScript', 'getDocsLogo', 'getFavicon', 'getHealth', 'getReadiness', 'getMetrics']);

/** An identify step that finds `callerOf(req)`'s caller, or nobody. */
export function identifyBy(callerOf: (req: Request) => Caller | undefined) {
  return async (req: Request): Promise<Identity> => {
    const caller = callerOf(req);
    return caller ? { kind: 'caller', caller } : ANONYMOUS;
  };
}

/** The base URL of `server` once it listens on 127.0.0.1; closed when the test that asked ends. */
export async function baseUrlOf(server: Server): Promise<string> {
  onTestFinished(() => void server.close());
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
