import { createHash } from 'node:crypto';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { TASKCTL } from './clients.service.js';
import { escapeHtml } from '../platform/html.js';
import { renderConsentPage, sendPage } from './consent-page.js';
import { renderDeviceConsentPage } from './device-page.js';

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

describe('who asks, and for what', () => {
  const base = { redirectUri: 'https://app.example.com/cb', codeChallenge: 'c'.repeat(43), state: undefined, scopes: ['tasks:read' as const] };
  const app = { id: 'c6d0a3c2-0000-4000-8000-000000000000', name: 'Task Service Official <b>Admin</b>', redirectUris: ['https://app.example.com/cb'], scopes: ['tasks:read' as const] };

  it('a name the app chose is shown as an unverified claim, escaped, with its client id; the built-in CLI is named plainly', () => {
    const html = renderConsentPage({ request: { ...base, client: app, resource: null }, csrfToken: 't' });
    expect(html).toContain('<h1>An app calling itself <strong>Task Service Official &#60;b&#62;Admin&#60;/b&#62;</strong> <span class="unverified">(unverified name)</span>');
    expect(html).toContain(`<code>${app.id}</code>`);
    expect(html).not.toContain('<b>Admin');
    const cli = renderConsentPage({ request: { ...base, client: TASKCTL, resource: null }, csrfToken: 't' });
    expect(cli).toContain('<h1><strong>taskctl (command line)</strong> wants to use your Task Service account</h1>');
    expect(cli).not.toContain('(unverified name)');
  });

  it('escapes a script an app put in the name it chose, on the consent and the device pages', () => {
    const scripted = { ...app, name: '<script>alert(document.cookie)</script>' };
    const consent = renderConsentPage({ request: { ...base, client: scripted, resource: null }, csrfToken: 't' });
    const device = renderDeviceConsentPage({ clientName: scripted.name, scopes: ['tasks:read'], userCode: 'BCDF-GHJK', csrfToken: 't' });
    for (const page of [consent, device]) {
      expect(page).not.toContain('<script');
      expect(page).toContain('&#60;script&#62;alert(document.cookie)&#60;/script&#62;');
    }
  });

  it('says whether the tokens are for the REST API or the MCP server, and where a metadata document lives', () => {
    const documented = { ...app, id: 'https://host.example.com/client.json', name: 'Host' };
    const mcp = renderConsentPage({ request: { ...base, client: documented, resource: 'https://tasks.example/mcp' }, csrfToken: 't' });
    expect(mcp).toContain('<strong>Task Service MCP server</strong> (<code>https://tasks.example/mcp</code>)');
    expect(mcp).toContain('published at <code>host.example.com</code>');
    expect(mcp).toContain('<input type="hidden" name="resource" value="https://tasks.example/mcp">');
    const rest = renderConsentPage({ request: { ...base, client: app, resource: null }, csrfToken: 't' });
    expect(rest).toContain('<strong>Task Service API</strong>');
    expect(rest).not.toContain('name="resource"');
  });
});
