import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appTokens, mcpUrl, postMcp, type SessionClient } from '../support/mcp.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** The JSON-RPC error body the Streamable HTTP transport answers a message it does not take with. */
const transportError = (code: number, message: string | RegExp) => ({ jsonrpc: '2.0', error: { code, message: typeof message === 'string' ? message : expect.stringMatching(message) }, id: null });

// What the Streamable HTTP transport answers on the wire (modelcontextprotocol.io, basic/transports), as
// the SDK's StreamableHTTPServerTransport answers it in stateless JSON mode: the conformance suite
// (scripts/mcp-conformance/) goes through the SDK's client, which never sends most of these.
describe('POST /mcp on the wire: the Streamable HTTP transport, stateless, one JSON body per POST', () => {
  let authorization: string;
  let otherAuthorization: string;
  let mine: SessionClient;
  let theirs: SessionClient;
  beforeAll(async () => {
    const [first, second] = [await appTokens(server), await appTokens(server)];
    [authorization, otherAuthorization] = [`Bearer ${first.accessToken}`, `Bearer ${second.accessToken}`];
    [mine, theirs] = [first.session.client, second.session.client];
  });
  const post = (message: unknown, headers: Record<string, string> = {}) => postMcp(server, message, { authorization, ...headers });

  it('initialize answers with the newest revision, the server and its capabilities, and no session', async () => {
    const response = await post(
      { jsonrpc: '2.0', id: 'init-1', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'wire', version: '1' } } },
      { 'mcp-protocol-version': '' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 'init-1',
      result: expect.objectContaining({
        protocolVersion: '2025-11-25',
        serverInfo: expect.objectContaining({ name: 'task-service' }),
        capabilities: expect.objectContaining({ tools: expect.any(Object), resources: expect.any(Object), prompts: expect.any(Object) }),
      }),
    });
  });

  it('an older revision asked for at initialize is the one answered', async () => {
    const response = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'old', version: '1' } } });
    expect(((await response.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe('2025-03-26');
  });

  it('a request is answered under its own id, a method the server does not have with -32601', async () => {
    expect(await (await post({ jsonrpc: '2.0', id: 7, method: 'ping' })).json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    expect(await (await post({ jsonrpc: '2.0', id: 'x', method: 'sampling/createMessage', params: {} })).json()).toEqual({
      jsonrpc: '2.0',
      id: 'x',
      error: { code: -32601, message: 'Method not found' },
    });
  });

  it('a batch of requests is answered with one array in the order asked', async () => {
    const response = await post([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'resources/templates/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(response.status).toBe(200);
    const answers = (await response.json()) as { id: number; result: Record<string, unknown> }[];
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(answers[1]!.result.resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'task://{taskId}' })]);
  });

  it('notifications and responses alone are accepted with 202 and no body', async () => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', id: 99, result: {} },
    ]) {
      const response = await post(message);
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
    }
  });

  it('logging/setLevel is answered with an empty result (nothing here logs to the client)', async () => {
    expect(await (await post({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'debug' } })).json()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('Accept without text/event-stream (or without application/json) is 406', async () => {
    for (const accept of ['application/json', 'text/event-stream']) {
      const response = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { accept });
      expect(response.status).toBe(406);
      expect(await response.json()).toEqual(transportError(-32000, 'Not Acceptable: Client must accept both application/json and text/event-stream'));
    }
  });

  it('a JSON body of another media type than application/json is 415', async () => {
    const response = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'content-type': 'application/merge-patch+json' });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual(transportError(-32000, 'Unsupported Media Type: Content-Type must be application/json'));
  });

  it('JSON that is not a JSON-RPC message is 400 -32700', async () => {
    for (const body of [{ hello: 'world' }, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '1.0', id: 2 }]]) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(transportError(-32700, 'Parse error: Invalid JSON-RPC message'));
    }
  });

  it('a batch of more than 100 messages is 400 -32600', async () => {
    const response = await post(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' })));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(transportError(-32600, /^Invalid Request: Batch must not exceed 100 messages/));
  });

  it('initialize in a batch with anything else is 400 -32600', async () => {
    const response = await post([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'wire', version: '1' } } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(transportError(-32600, 'Invalid Request: Only one initialization request is allowed'));
  });

  it('an MCP-Protocol-Version the server does not speak is 400 naming the ones it does', async () => {
    const response = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2023-01-01' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(transportError(-32000, /^Bad Request: Unsupported protocol version: 2023-01-01 \(supported versions: 2025-11-25, /));
  });

  it('an empty body is 400 -32700', async () => {
    const response = await fetch(mcpUrl(server), {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('concurrent POSTs of two accounts with the same JSON-RPC ids are each answered for their own account', async () => {
    const accounts = await Promise.all(
      [authorization, otherAuthorization].map(async (auth, i) => ({ auth, rest: i === 0 ? mine : theirs })),
    );
    const taskIds = await Promise.all(accounts.map(async ({ rest }) => (await rest.createTask({ title: 'Read at the same time' })).data!.id));
    const read = async (account: number, id: number) => {
      const response = await postMcp(server, { jsonrpc: '2.0', id, method: 'resources/read', params: { uri: `task://${taskIds[account]}` } }, { authorization: accounts[account]!.auth });
      const answer = (await response.json()) as { id: number; result: { contents: { text: string }[] } };
      return { id: answer.id, taskId: (JSON.parse(answer.result.contents[0]!.text) as { id: string }).id };
    };
    const asked = Array.from({ length: 40 }, (_, i) => ({ account: i % 2, id: Math.floor(i / 2) % 3 }));
    const answers = await Promise.all(asked.map(({ account, id }) => read(account, id)));
    expect(answers).toEqual(asked.map(({ account, id }) => ({ id, taskId: taskIds[account] })));
  });
});
