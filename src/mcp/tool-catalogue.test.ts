import { describe, expect, it } from 'vitest';
import { readOpenApiDocument } from '../http/openapi-document.js';
import { describeTools, TOOL_NAMES, toOperationRequest } from './tool-catalogue.js';

interface Document {
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
  paths: Record<string, unknown>;
}
const document = () => structuredClone(readOpenApiDocument().document) as unknown as Document;

describe('the tool catalogue', () => {
  it('describes the nine tools of docs/signing-in.md, each the REST operation it runs as', () => {
    const tools = describeTools(document());
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.operationId]))).toEqual({
      list_tasks: 'listTasks',
      get_task: 'getTask',
      create_task: 'createTask',
      update_task: 'updateTask',
      delete_task: 'deleteTask',
      get_usage: 'getUsage',
      list_connector_accounts: 'listConnectorAccounts',
      start_sync: 'startSync',
      get_sync_job: 'getSyncJob',
    });
  });

  it('input schemas come from the document: a change to TaskCreate there changes create_task', () => {
    const changed = document();
    changed.components.schemas.TaskCreate!.properties.title!.maxLength = 80;
    changed.components.schemas.TaskCreate!.properties.colour = { type: 'string', enum: ['red', 'blue'] };
    const create = describeTools(changed).find((tool) => tool.name === 'create_task')!;
    expect(create.inputSchema.properties).toMatchObject({ title: { maxLength: 80 }, colour: { enum: ['red', 'blue'] } });
    expect(create.argumentPlaces.body).toContain('colour');
  });

  it('resolves every $ref, keeps OpenAPI-only keywords out, and leaves the document untouched', () => {
    const original = document();
    const before = JSON.stringify(original);
    const tools = describeTools(original);
    for (const tool of tools) {
      expect(JSON.stringify(tool.inputSchema)).not.toContain('$ref');
      expect(JSON.stringify(tool.inputSchema)).not.toContain('"example"');
    }
    expect(JSON.stringify(original)).toBe(before);
  });

  it('update_task takes the task id beside at least one change, and the arguments split into path and body', () => {
    const update = describeTools(document()).find((tool) => tool.name === 'update_task')!;
    expect(update.inputSchema).toMatchObject({ required: ['taskId'], minProperties: 2, additionalProperties: false });
    expect(toOperationRequest(update, { taskId: 'abc', status: 'completed', notes: null })).toEqual({
      path: { taskId: 'abc' },
      query: {},
      body: { status: 'completed', notes: null },
    });
    const list = describeTools(document()).find((tool) => tool.name === 'list_tasks')!;
    expect(toOperationRequest(list, { limit: 5 })).toEqual({ path: {}, query: { limit: 5 } });
  });

  it('refuses a document that lacks an operation a tool is', () => {
    const broken = document();
    delete broken.paths['/sync-jobs/{jobId}'];
    expect(() => describeTools(broken)).toThrow(/getSyncJob/);
  });
});
