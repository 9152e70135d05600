import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

/** Operations in the contract whose issue has not landed: they must say so (501), not pretend. */
const NOT_IMPLEMENTED: string[] = [];

interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> };
}
type Document = { paths: Record<string, Record<string, Operation>> };

const placeholder: Record<string, string> = {
  taskId: '00000000-0000-4000-8000-000000000000',
  tokenId: '00000000-0000-4000-8000-000000000000',
  accountId: '00000000-0000-4000-8000-000000000000',
  jobId: '00000000-0000-4000-8000-000000000000',
  type: 'ical',
  clientId: 'some-app',
};
const validQuery: Record<string, string> = {
  authorize: `?response_type=code&client_id=taskctl&redirect_uri=${encodeURIComponent('http://127.0.0.1:8765/callback')}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&state=s`,
};
const validForm: Record<string, string> = {
  issueOAuthToken: 'grant_type=refresh_token&refresh_token=unknown&client_id=taskctl',
  revokeOAuthToken: 'token=unknown',
  submitAuthorization: `decision=deny&response_type=code&client_id=taskctl&redirect_uri=${encodeURIComponent('http://127.0.0.1:8765/callback')}`,
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('operations not implemented yet', () => {
  it('are exactly the listed ones, each answering 501 NOT_IMPLEMENTED in the common body', async () => {
    const { tokens } = await signedInClient(server);
    const document = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Document;
    const answered: string[] = [];
    for (const [template, pathItem] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(pathItem)) {
        if (!operation.operationId) continue;
        const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => placeholder[name] ?? 'x');
        const headers: Record<string, string> = { authorization: `Bearer ${tokens.accessToken}` };
        let body: string | undefined;
        const content = operation.requestBody?.content ?? {};
        if (content['application/json']) {
          const media = content['application/json'];
          headers['content-type'] = 'application/json';
          body = JSON.stringify(media.example ?? Object.values(media.examples ?? {})[0]?.value ?? {});
        } else if (content['application/x-www-form-urlencoded']) {
          headers['content-type'] = 'application/x-www-form-urlencoded';
          body = validForm[operation.operationId] ?? '';
        }
        const response = await fetch(`${server.baseUrl}${path}${validQuery[operation.operationId] ?? ''}`, {
          method: method.toUpperCase(),
          headers,
          body,
          redirect: 'manual',
        });
        if (response.status === 501) {
          expect(await response.json()).toMatchObject({ statusCode: 501, code: 'NOT_IMPLEMENTED' });
          answered.push(operation.operationId);
        } else {
          await response.body?.cancel();
        }
      }
    }
    expect(answered.sort()).toEqual(NOT_IMPLEMENTED);
  });
});
