import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { TASKCTL } from './clients.service.js';
import { escapeHtml, renderConsentPage, sendPage } from './consent-page.js';

describe('the consent page', () => {
  it('escapes every character that could end an attribute or start markup', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  });

  it('puts the request in hidden fields, escaped, and leaves out an absent state', () => {
    const html = renderConsentPage({
      request: { client: { ...TASKCTL, name: 'A "quoted" <app>' }, redirectUri: 'http://127.0.0.1:1/cb?a=1&b=2', codeChallenge: 'c'.repeat(43), state: undefined, scopes: ['tasks:read'], resource: null },
      csrfToken: '1.token',
      error: '<b>no</b>',
    });
    expect(html).toContain('<input type="hidden" name="redirect_uri" value="http://127.0.0.1:1/cb?a=1&#38;b=2">');
    expect(html).toContain('A &#34;quoted&#34; &#60;app&#62;');
    expect(html).toContain('&#60;b&#62;no&#60;/b&#62;');
    expect(html).not.toContain('name="state"');
    expect(html).toContain('See your tasks');
    // Enter in the password field submits the first button: it must be allow, not deny.
    expect(html.indexOf('value="allow"')).toBeLessThan(html.indexOf('value="deny"'));
    expect(html).not.toContain('Create, change and delete');
  });

  it('is sent with a policy that allows exactly its own inline style', () => {
    const headers: Record<string, string> = {};
    let sent = '';
    const res = {
      status: () => res,
      set: (values: Record<string, string>) => Object.assign(headers, values) && res,
      send: (body: string) => {
        sent = body;
        return res;
      },
    } as unknown as Response;
    sendPage(res, 200, renderConsentPage({ request: { client: TASKCTL, redirectUri: 'http://127.0.0.1:9/cb', codeChallenge: 'c'.repeat(43), state: 's', scopes: ['tasks:read'], resource: null }, csrfToken: 't' }), 'http://127.0.0.1:9/cb');
    const style = /<style>([\s\S]*?)<\/style>/.exec(sent)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    expect(headers['Content-Security-Policy']).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; form-action 'self' http://127.0.0.1:9; frame-ancestors 'none'; base-uri 'none'`,
    );
    expect(headers['X-Frame-Options']).toBe('DENY');
  });
});
