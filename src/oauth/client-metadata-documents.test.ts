import { describe, expect, it } from 'vitest';
import { createClientMetadataDocuments, freshnessSeconds, isDocumentUrl, type FetchDocument } from './client-metadata-documents.js';

const URL_ID = 'https://app.example.com/oauth/client.json';
const document = (extra: Record<string, unknown> = {}) => ({ client_id: URL_ID, client_name: 'Example', redirect_uris: ['http://127.0.0.1:4000/cb'], ...extra });

function fakeFetch(answers: { body: unknown; headers?: Record<string, string>; status?: number }[]) {
  const calls: string[] = [];
  const fetchDocument: FetchDocument = async (url) => {
    calls.push(url);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return { status: answer.status ?? 200, headers: answer.headers ?? {}, body: Buffer.from(JSON.stringify(answer.body)) };
  };
  return { fetchDocument, calls };
}

const check = (metadata: Record<string, unknown>) => {
  const uris = metadata.redirect_uris as string[] | undefined;
  if (!uris?.length) throw new Error('redirect_uris must list at least one URI.');
  return { redirectUris: uris, scopes: ['tasks:read' as const], name: metadata.client_name as string | undefined };
};

describe('client ID metadata documents', () => {
  it('only an https URL with a path and no fragment or user info is a document URL', () => {
    expect(isDocumentUrl(URL_ID)).toBe(true);
    for (const id of ['http://app.example.com/c.json', 'https://app.example.com/', 'https://app.example.com/c#x', 'https://u:p@app.example.com/c', 'taskctl', `https://a.example/${'x'.repeat(300)}`]) {
      expect(isDocumentUrl(id)).toBe(false);
    }
  });

  it('describes the client when the document names its own URL, and keeps it as long as max-age says', async () => {
    let now = 1_000_000;
    const { fetchDocument, calls } = fakeFetch([{ body: document(), headers: { 'cache-control': 'public, max-age=60' } }]);
    const documents = createClientMetadataDocuments(fetchDocument, check, () => now);
    expect(await documents.find(URL_ID)).toEqual({ ok: true, client: { id: URL_ID, name: 'Example', redirectUris: ['http://127.0.0.1:4000/cb'], scopes: ['tasks:read'] } });
    now += 59_000;
    await documents.find(URL_ID);
    expect(calls).toHaveLength(1);
    now += 2_000;
    await documents.find(URL_ID);
    expect(calls).toHaveLength(2);
  });

  it('fetches again every time when the document may not be kept', async () => {
    const { fetchDocument, calls } = fakeFetch([{ body: document(), headers: { 'cache-control': 'no-store' } }]);
    const documents = createClientMetadataDocuments(fetchDocument, check);
    await documents.find(URL_ID);
    await documents.find(URL_ID);
    expect(calls).toHaveLength(2);
  });

  it('refuses a document for another client_id, with a secret, without redirect URIs, not JSON or not 200', async () => {
    for (const answer of [
      { body: document({ client_id: 'https://evil.example/c.json' }) },
      { body: document({ client_secret: 's' }) },
      { body: document({ redirect_uris: [] }) },
      { body: ['not', 'an', 'object'] },
      { body: document(), status: 404 },
    ]) {
      const outcome = await createClientMetadataDocuments(fakeFetch([answer]).fetchDocument, check).find(URL_ID);
      expect(outcome.ok).toBe(false);
    }
  });

  it('reads freshness as RFC 9111 does', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(freshnessSeconds({ 'cache-control': 'max-age=300' }, now)).toBe(300);
    expect(freshnessSeconds({ 'cache-control': 'max-age=300, no-cache' }, now)).toBe(0);
    expect(freshnessSeconds({ 'cache-control': 'max-age=99999999' }, now)).toBe(86_400);
    expect(freshnessSeconds({ expires: 'Thu, 01 Jan 2026 00:10:00 GMT', date: 'Thu, 01 Jan 2026 00:00:00 GMT' }, now)).toBe(600);
    expect(freshnessSeconds({}, now)).toBe(0);
  });
});
