/**
 * Known breaking and non-breaking changes to a small OpenAPI 3.1 document, modelled on oasdiff's
 * breaking-change rules: each pair is the base document and the base with one change applied. The
 * check:breaking gate is proven on these (scripts/breaking-changes.test.ts), and the candidate diff
 * libraries were measured on the first 62 of them (scripts/breaking-tools-evaluation.ts, docs/versioning.md);
 * the pairs after those are the holes found in the gate since (webhooks, oneOf/allOf, open enums).
 */

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ChangeFixture {
  /** What changed, as a reader of the table says it. */
  readonly name: string;
  readonly breaking: boolean;
  /** Applies the change to a copy of the base document. */
  readonly change: (doc: Json) => void;
}

export function baseDocument(): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'Fixture', version: '1.0.0', description: 'A small task API.' },
    tags: [{ name: 'tasks' }],
    security: [{ oauth2: ['tasks:read'] }],
    paths: {
      '/tasks': {
        get: {
          operationId: 'listTasks',
          tags: ['tasks'],
          summary: 'List tasks',
          parameters: [
            { name: 'status', in: 'query', schema: { type: 'string', enum: ['open', 'completed', 'all'] } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200 } },
            { name: 'updatedSince', in: 'query', schema: { type: 'string', format: 'date-time' } },
          ],
          responses: {
            '200': {
              description: 'A page of tasks.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/TaskList' } } },
            },
            '400': { $ref: '#/components/responses/Problem' },
          },
        },
        post: {
          operationId: 'createTask',
          tags: ['tasks'],
          summary: 'Create a task',
          security: [{ oauth2: ['tasks:write'] }],
          parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string', maxLength: 64 } }],
          requestBody: {
            content: { 'application/json': { schema: { $ref: '#/components/schemas/TaskInput' } } },
          },
          responses: {
            '201': {
              description: 'Created.',
              headers: { Location: { required: true, schema: { type: 'string' } } },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Task' } } },
            },
            '400': { $ref: '#/components/responses/Problem' },
          },
        },
      },
      '/tasks/{taskId}': {
        parameters: [{ name: 'taskId', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'getTask',
          tags: ['tasks'],
          responses: {
            '200': {
              description: 'The task.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Task' } } },
            },
          },
        },
        delete: {
          operationId: 'deleteTask',
          tags: ['tasks'],
          security: [{ oauth2: ['tasks:write'] }],
          responses: { '204': { description: 'Deleted.' } },
        },
      },
      '/changes': {
        get: {
          operationId: 'listChanges',
          tags: ['tasks'],
          responses: {
            '200': { description: 'A page of changes.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ChangeList' } } } },
          },
        },
      },
      '/health': {
        get: {
          operationId: 'getHealth',
          security: [],
          responses: { '200': { description: 'Up.', content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string' } } } } } } },
        },
      },
    },
    webhooks: {
      'task.created': {
        post: {
          operationId: 'onTaskCreated',
          security: [],
          parameters: [{ name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/TaskEvent' } } } },
          responses: { '200': { description: 'Delivered.' } },
        },
      },
      'task.deleted': {
        post: {
          operationId: 'onTaskDeleted',
          security: [],
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/TaskDeleted' } } } },
          responses: { '200': { description: 'Delivered.' } },
        },
      },
    },
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: 'https://example.com/token',
              scopes: { 'tasks:read': 'Read tasks.', 'tasks:write': 'Write tasks.', 'tasks:admin': 'Everything.' },
            },
          },
        },
      },
      responses: {
        Problem: {
          description: 'A problem.',
          content: { 'application/json': { schema: { type: 'object', required: ['code'], properties: { code: { $ref: '#/components/schemas/ErrorCode' } } } } },
        },
      },
      schemas: {
        ErrorCode: { type: 'string', enum: ['VALIDATION_FAILED', 'NOT_FOUND'], 'x-open-enum': true },
        TaskInput: {
          type: 'object',
          additionalProperties: false,
          required: ['title'],
          properties: {
            title: { type: 'string', minLength: 1, maxLength: 200 },
            notes: { type: 'string', maxLength: 2000 },
            priority: { type: 'string', enum: ['low', 'normal', 'high'] },
            dueAt: { type: 'string', format: 'date-time' },
            estimate: { type: 'number', minimum: 0 },
            points: { type: 'integer', minimum: 0, maximum: 100 },
            labels: { type: 'array', items: { type: 'string' }, maxItems: 20 },
            parentId: { type: ['string', 'null'] },
          },
        },
        Task: {
          type: 'object',
          required: ['id', 'title', 'status', 'version'],
          properties: {
            id: { type: 'string' },
            title: { type: 'string' },
            notes: { type: 'string' },
            status: { type: 'string', enum: ['open', 'completed'] },
            dueAt: { type: 'string', format: 'date-time' },
            version: { type: 'integer' },
          },
        },
        TaskList: {
          type: 'object',
          required: ['tasks'],
          properties: {
            tasks: { type: 'array', items: { $ref: '#/components/schemas/Task' } },
            nextCursor: { type: 'string' },
          },
        },
        TaskEvent: {
          type: 'object',
          required: ['type', 'timestamp', 'data'],
          properties: {
            type: { type: 'string', enum: ['task.created', 'task.updated'] },
            timestamp: { type: 'string', format: 'date-time' },
            data: { $ref: '#/components/schemas/Task' },
          },
        },
        ChangeList: {
          type: 'object',
          required: ['changes'],
          properties: { changes: { type: 'array', items: { $ref: '#/components/schemas/Change' } } },
        },
        Change: { oneOf: [{ $ref: '#/components/schemas/TaskUpserted' }, { $ref: '#/components/schemas/TaskDeleted' }] },
        ChangeBase: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } } },
        TaskUpserted: {
          allOf: [{ $ref: '#/components/schemas/ChangeBase' }, { type: 'object', required: ['task'], properties: { task: { $ref: '#/components/schemas/Task' } } }],
        },
        TaskDeleted: {
          type: 'object',
          required: ['kind', 'taskId'],
          properties: { kind: { type: 'string' }, taskId: { type: 'string' } },
        },
      },
    },
  };
}

const input = (doc: Json) => doc.components.schemas.TaskInput;
const schema = (doc: Json, name: string) => doc.components.schemas[name];
const task = (doc: Json) => doc.components.schemas.Task;
const listParam = (doc: Json, name: string) => doc.paths['/tasks'].get.parameters.find((p: Json) => p.name === name);

export const fixtures: readonly ChangeFixture[] = [
  // Breaking: something a client relies on is taken away, or something it sends is refused.
  { name: 'operation removed', breaking: true, change: (d) => void delete d.paths['/tasks/{taskId}'].delete },
  { name: 'path removed', breaking: true, change: (d) => void delete d.paths['/health'] },
  {
    name: 'success status removed (200 becomes 203)',
    breaking: true,
    change: (d) => {
      const get = d.paths['/tasks/{taskId}'].get;
      get.responses = { '203': get.responses['200'] };
    },
  },
  { name: 'response property removed', breaking: true, change: (d) => void delete task(d).properties.notes },
  { name: 'response property no longer required', breaking: true, change: (d) => void (task(d).required = ['id', 'title', 'status']) },
  { name: 'response enum value added', breaking: true, change: (d) => void task(d).properties.status.enum.push('archived') },
  { name: 'response property type changed', breaking: true, change: (d) => void (task(d).properties.version = { type: 'string' }) },
  { name: 'response property became nullable', breaking: true, change: (d) => void (task(d).properties.title = { type: ['string', 'null'] }) },
  { name: 'response media type removed', breaking: true, change: (d) => {
    const ok = d.paths['/tasks/{taskId}'].get.responses['200'];
    ok.content = { 'application/xml': ok.content['application/json'] };
  } },
  { name: 'required response header removed', breaking: true, change: (d) => void delete d.paths['/tasks'].post.responses['201'].headers },
  { name: 'new required request property', breaking: true, change: (d) => {
    input(d).properties.assignee = { type: 'string' };
    input(d).required.push('assignee');
  } },
  { name: 'optional request property became required', breaking: true, change: (d) => void input(d).required.push('notes') },
  { name: 'request body became required', breaking: true, change: (d) => void (d.paths['/tasks'].post.requestBody.required = true) },
  { name: 'request property type narrowed (number to integer)', breaking: true, change: (d) => void (input(d).properties.estimate.type = 'integer') },
  { name: 'request property type changed (string to integer)', breaking: true, change: (d) => void (input(d).properties.notes = { type: 'integer' }) },
  { name: 'request enum value removed', breaking: true, change: (d) => void (input(d).properties.priority.enum = ['normal', 'high']) },
  { name: 'request property format changed', breaking: true, change: (d) => void (input(d).properties.dueAt.format = 'date') },
  { name: 'request maxLength decreased', breaking: true, change: (d) => void (input(d).properties.title.maxLength = 100) },
  { name: 'request minimum increased', breaking: true, change: (d) => void (input(d).properties.points.minimum = 1) },
  { name: 'request pattern added', breaking: true, change: (d) => void (input(d).properties.notes.pattern = '^[a-z]*$') },
  { name: 'request maxItems decreased', breaking: true, change: (d) => void (input(d).properties.labels.maxItems = 5) },
  { name: 'request property no longer nullable', breaking: true, change: (d) => void (input(d).properties.parentId = { type: 'string' }) },
  { name: 'request media type removed', breaking: true, change: (d) => {
    const body = d.paths['/tasks'].post.requestBody;
    body.content = { 'application/x-www-form-urlencoded': body.content['application/json'] };
  } },
  { name: 'new required query parameter', breaking: true, change: (d) => void d.paths['/tasks'].get.parameters.push({ name: 'project', in: 'query', required: true, schema: { type: 'string' } }) },
  { name: 'optional query parameter became required', breaking: true, change: (d) => void (listParam(d, 'limit').required = true) },
  { name: 'optional header parameter became required', breaking: true, change: (d) => void (d.paths['/tasks'].post.parameters[0].required = true) },
  { name: 'query parameter maximum decreased', breaking: true, change: (d) => void (listParam(d, 'limit').schema.maximum = 100) },
  { name: 'query parameter enum value removed', breaking: true, change: (d) => void (listParam(d, 'status').schema.enum = ['open', 'completed']) },
  { name: 'query parameter type changed', breaking: true, change: (d) => void (listParam(d, 'limit').schema = { type: 'boolean' }) },
  { name: 'security scope added to an operation', breaking: true, change: (d) => void (d.paths['/tasks'].post.security = [{ oauth2: ['tasks:write', 'tasks:admin'] }]) },
  { name: 'security added to an open operation', breaking: true, change: (d) => void (d.paths['/health'].get.security = [{ oauth2: ['tasks:read'] }]) },
  { name: 'path parameter renamed', breaking: true, change: (d) => {
    const item = d.paths['/tasks/{taskId}'];
    item.parameters[0].name = 'id';
    delete d.paths['/tasks/{taskId}'];
    d.paths['/tasks/{id}'] = item;
  } },

  // Not breaking: the contract grows, or only its prose changes.
  { name: 'optional request property added', breaking: false, change: (d) => void (input(d).properties.color = { type: 'string' }) },
  { name: 'operation added', breaking: false, change: (d) => void (d.paths['/tasks/{taskId}'].patch = { operationId: 'updateTask', responses: { '200': { description: 'Updated.' } } }) },
  { name: 'path added', breaking: false, change: (d) => void (d.paths['/tasks/changes'] = { get: { operationId: 'listTaskChanges', responses: { '200': { description: 'Changes.' } } } }) },
  { name: 'request enum widened', breaking: false, change: (d) => void input(d).properties.priority.enum.push('urgent') },
  { name: 'query parameter enum widened', breaking: false, change: (d) => void listParam(d, 'status').schema.enum.push('overdue') },
  { name: 'error status added', breaking: false, change: (d) => void (d.paths['/tasks/{taskId}'].get.responses['404'] = { $ref: '#/components/responses/Problem' }) },
  { name: 'operation description changed', breaking: false, change: (d) => void (d.paths['/tasks'].get.description = 'Lists the tasks of the account.') },
  { name: 'summary changed', breaking: false, change: (d) => void (d.paths['/tasks'].post.summary = 'Create one task') },
  { name: 'property description added', breaking: false, change: (d) => void (task(d).properties.title.description = 'What to do.') },
  { name: 'response property added', breaking: false, change: (d) => void (task(d).properties.createdAt = { type: 'string', format: 'date-time' }) },
  { name: 'response property became required', breaking: false, change: (d) => void task(d).required.push('notes') },
  { name: 'response enum value removed', breaking: false, change: (d) => void (task(d).properties.status.enum = ['open']) },
  { name: 'required request property became optional', breaking: false, change: (d) => void (input(d).required = []) },
  { name: 'optional query parameter added', breaking: false, change: (d) => void d.paths['/tasks'].get.parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } }) },
  { name: 'optional header parameter added', breaking: false, change: (d) => void (d.paths['/tasks/{taskId}'].get.parameters = [{ name: 'If-None-Match', in: 'header', schema: { type: 'string' } }]) },
  { name: 'request maxLength increased', breaking: false, change: (d) => void (input(d).properties.title.maxLength = 500) },
  { name: 'request minimum decreased', breaking: false, change: (d) => void (input(d).properties.estimate.minimum = -1) },
  { name: 'request type widened (integer to number)', breaking: false, change: (d) => void (input(d).properties.points.type = 'number') },
  { name: 'request property became nullable', breaking: false, change: (d) => void (input(d).properties.notes.type = ['string', 'null']) },
  { name: 'query parameter maximum increased', breaking: false, change: (d) => void (listParam(d, 'limit').schema.maximum = 500) },
  { name: 'example added', breaking: false, change: (d) => void (input(d).properties.title.examples = ['Buy milk']) },
  { name: 'tag added', breaking: false, change: (d) => void d.tags.push({ name: 'changes', description: 'The change feed.' }) },
  { name: 'security scope removed from an operation', breaking: false, change: (d) => void (d.paths['/tasks'].post.security = [{ oauth2: [] }]) },
  { name: 'response header added', breaking: false, change: (d) => void (d.paths['/tasks/{taskId}'].get.responses['200'].headers = { ETag: { schema: { type: 'string' } } }) },
  { name: 'request media type added', breaking: false, change: (d) => {
    const body = d.paths['/tasks'].post.requestBody;
    body.content['application/x-www-form-urlencoded'] = body.content['application/json'];
  } },
  { name: 'operation deprecated', breaking: false, change: (d) => void (d.paths['/tasks/{taskId}'].delete.deprecated = true) },
  { name: 'parameter deprecated', breaking: false, change: (d) => Object.assign(listParam(d, 'updatedSince'), { deprecated: true, 'x-sunset': '2027-06-01' }) },
  { name: 'info version and description changed', breaking: false, change: (d) => void Object.assign(d.info, { version: '1.1.0', description: 'The task API.' }) },
  { name: 'vendor extension changed', breaking: false, change: (d) => void (d.paths['/tasks'].get['x-rate-limit-budget'] = 'account') },
  { name: 'inline schema moved to a component', breaking: false, change: (d) => {
    d.components.schemas.Health = d.paths['/health'].get.responses['200'].content['application/json'].schema;
    d.paths['/health'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Health' };
  } },

  // Holes found in the gate after the first 62: what a client receives in a webhook or inside
  // oneOf/anyOf/allOf, a request property a closed object stops taking, the version, open enums.
  { name: 'request property removed (additionalProperties false)', breaking: true, change: (d) => void delete input(d).properties.labels },
  { name: 'webhook payload property removed', breaking: true, change: (d) => {
    delete schema(d, 'TaskEvent').properties.timestamp;
    schema(d, 'TaskEvent').required = ['type', 'data'];
  } },
  { name: 'webhook removed', breaking: true, change: (d) => void delete d.webhooks['task.deleted'] },
  { name: 'webhook payload enum value added', breaking: true, change: (d) => void schema(d, 'TaskEvent').properties.type.enum.push('task.archived') },
  { name: 'webhook payload property no longer required', breaking: true, change: (d) => void (schema(d, 'TaskEvent').required = ['type', 'data']) },
  { name: 'required webhook header removed', breaking: true, change: (d) => void (d.webhooks['task.created'].post.parameters = []) },
  { name: 'type changed inside oneOf', breaking: true, change: (d) => void (schema(d, 'TaskDeleted').properties.taskId = { type: 'integer' }) },
  { name: 'response property removed inside allOf', breaking: true, change: (d) => {
    schema(d, 'ChangeBase').properties = {};
    schema(d, 'ChangeBase').required = [];
  } },
  { name: 'response oneOf alternative added', breaking: true, change: (d) => void schema(d, 'Change').oneOf.push({ type: 'object', properties: { kind: { type: 'string' }, labels: { type: 'array' } } }) },
  { name: 'info version went down', breaking: true, change: (d) => void (d.info.version = '0.9.0') },
  { name: 'open enum value removed from a request', breaking: true, change: (d) => {
    d.components.schemas.Filter = { type: 'string', enum: ['open', 'completed', 'all'], 'x-open-enum': true };
    listParam(d, 'status').schema = { $ref: '#/components/schemas/Filter' };
    d.components.schemas.Filter.enum = ['open', 'completed'];
  } },
  { name: 'open enum value added (x-open-enum)', breaking: false, change: (d) => void schema(d, 'ErrorCode').enum.push('RATE_LIMIT_EXCEEDED') },
  { name: 'webhook added', breaking: false, change: (d) => void (d.webhooks['task.updated'] = structuredClone(d.webhooks['task.created'])) },
  { name: 'webhook payload property added', breaking: false, change: (d) => void (schema(d, 'TaskEvent').properties.source = { type: 'string' }) },
  { name: 'webhook payload enum value removed', breaking: false, change: (d) => void (schema(d, 'TaskEvent').properties.type.enum = ['task.created']) },
  { name: 'response oneOf alternative removed', breaking: false, change: (d) => void schema(d, 'Change').oneOf.pop() },
  { name: 'allOf flattened into the same object', breaking: false, change: (d) => {
    d.components.schemas.TaskUpserted = {
      type: 'object',
      required: ['kind', 'task'],
      properties: { kind: { type: 'string' }, task: { $ref: '#/components/schemas/Task' } },
    };
  } },
  { name: 'request property removed from an object that takes any other', breaking: false, change: (d) => {
    d.paths['/tasks'].post.requestBody.content['application/json'].schema = { type: 'object', required: ['title'], properties: { title: { type: 'string' } } };
  } },
];

/** A deep copy of the base with `fixture`'s change applied. */
export function changedDocument(fixture: ChangeFixture): Json {
  const doc = baseDocument();
  fixture.change(doc);
  return doc;
}
