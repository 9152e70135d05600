import { TOOL_CATALOGUE, type OperationId, type Scope } from './tool-catalogue.js';

/**
 * The operations MCP runs besides its tools: the resources read getUsage, getTask and listTasks
 * (resource-reads.ts), the prompts and completions walk listTasks (prompt-gets.ts, completions.ts).
 */
const RESOURCE_AND_PROMPT_OPERATIONS: readonly OperationId[] = ['getUsage', 'getTask', 'listTasks'];

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type Requirement = Record<string, readonly string[]>;

/**
 * The scopes a token for /mcp can use (RFC 9728 `scopes_supported`, the 401's `scope`): those the
 * document's security asks of the operations MCP's tools, resources and prompts run, in `order`.
 * A host asks a person for these and no more: never account or webhook management.
 */
export function mcpScopes(document: Record<string, unknown>, order: readonly Scope[]): Scope[] {
  const wanted = new Set<string>([...TOOL_CATALOGUE.map((tool) => tool.operationId), ...RESOURCE_AND_PROMPT_OPERATIONS]);
  const needed = new Set<string>();
  for (const item of Object.values((document.paths ?? {}) as Record<string, Record<string, { operationId?: string; security?: Requirement[] }>>)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation?.operationId || !wanted.has(operation.operationId)) continue;
      wanted.delete(operation.operationId);
      for (const requirement of operation.security ?? []) for (const scopes of Object.values(requirement)) for (const scope of scopes) needed.add(scope);
    }
  }
  if (wanted.size > 0) throw new Error(`MCP runs operations the document does not have: ${[...wanted].join(', ')}`);
  return order.filter((scope) => needed.has(scope));
}
