// `npm start` runs src/main.ts with the environment it is given; with neither NODE_ENV nor
// OPENAPI_VALIDATE_RESPONSES set it must check every response against the document
// (docs/production.md), and in production it must not (docs/benchmarks.md#response-validation).
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** What the started process says of itself in its "listening" line. */
function listeningLine(started: TestServer): { responsesValidated?: boolean } {
  const line = started.logs.find((entry) => entry.includes('listening on port'));
  return JSON.parse(line ?? '{}') as { responsesValidated?: boolean };
}

describe('the response check of a started server', () => {
  it('is on when the environment names neither NODE_ENV nor OPENAPI_VALIDATE_RESPONSES', async () => {
    // An empty value is an unset setting (src/config.ts).
    server = await startServer({ env: { NODE_ENV: '', OPENAPI_VALIDATE_RESPONSES: '' } });
    expect(listeningLine(server).responsesValidated).toBe(true);
  });

  it('is off in production', async () => {
    server = await startServer({ env: { NODE_ENV: 'production', OPENAPI_VALIDATE_RESPONSES: '' } });
    expect(listeningLine(server).responsesValidated).toBe(false);
  });
});
