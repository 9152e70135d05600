import { describe, expect, it } from 'vitest';
import { checkRedirectUri, matchesRegisteredRedirectUri, redirectCspSource } from './redirect-uris.js';

describe('redirect URIs a public client may register (RFC 8252)', () => {
  it.each([
    'https://app.example.com/callback',
    'https://app.example.com:8443/cb?tenant=1',
    'http://127.0.0.1/callback',
    'http://127.0.0.1:8765/callback',
    'http://[::1]:8765/callback',
    'http://localhost:3000/cb',
    'com.example.app:/oauth2redirect',
    'com.example.app:/cb?x=1',
  ])('accepts %s', (uri) => {
    expect(checkRedirectUri(uri)).toEqual({ ok: true });
  });

  it.each([
    ['http://app.example.com/cb', 'loopback'],
    ['http://127.0.0.2/cb', 'loopback'],
    ['http://localhost.example.com/cb', 'loopback'],
    ['https://app.example.com/cb#x', 'fragment'],
    ['https://app.example.com/cb#', 'fragment'],
    ['https://user@app.example.com/cb', 'user information'],
    ['javascript:alert(1)', 'private-use'],
    ['data:text/html,x', 'private-use'],
    ['file:///etc/passwd', 'private-use'],
    ['ftp://files.example.com/', 'private-use'],
    ['myapp:/cb', 'private-use'],
    ['/relative/path', 'absolute'],
    ['', 'absolute'],
  ])('refuses %s (%s)', (uri, reason) => {
    const check = checkRedirectUri(uri);
    expect(check.ok).toBe(false);
    expect(check.ok === false && check.reason).toContain(reason);
  });
});

describe('matching a presented redirect URI against the registered ones', () => {
  const registered = ['https://app.example.com/cb', 'http://127.0.0.1/callback', 'com.example.app:/cb'];

  it('is exact for https and private-use schemes', () => {
    expect(matchesRegisteredRedirectUri('https://app.example.com/cb', registered)).toBe(true);
    expect(matchesRegisteredRedirectUri('com.example.app:/cb', registered)).toBe(true);
    for (const other of ['https://app.example.com/cb/', 'https://app.example.com:443/cb', 'https://APP.example.com/cb', 'https://app.example.com/cb?x=1', 'com.example.app:/cb2']) {
      expect(matchesRegisteredRedirectUri(other, registered)).toBe(false);
    }
  });

  it('lets a loopback port vary, with scheme, host and path as registered (RFC 8252 §7.3)', () => {
    expect(matchesRegisteredRedirectUri('http://127.0.0.1:49152/callback', registered)).toBe(true);
    expect(matchesRegisteredRedirectUri('http://127.0.0.1/callback', registered)).toBe(true);
    for (const other of [
      'http://127.0.0.1:49152/callback/',
      'http://127.0.0.1:49152/other',
      'http://localhost:49152/callback',
      'http://[::1]:49152/callback',
      'https://127.0.0.1:49152/callback',
      'http://127.0.0.1:49152/x/../callback',
      'http://127.0.0.1:49152/callback?extra=1',
      'http://user@127.0.0.1:49152/callback',
    ]) {
      expect(matchesRegisteredRedirectUri(other, registered), other).toBe(false);
    }
  });

  it('never lets the port vary for https', () => {
    expect(matchesRegisteredRedirectUri('https://app.example.com:8443/cb', registered)).toBe(false);
  });
});

describe('the form-action source of a redirect URI', () => {
  it('is the origin, the scheme for private-use URIs, and the scheme for IPv6 loopback (CSP cannot name it)', () => {
    expect(redirectCspSource('http://127.0.0.1:8765/callback')).toBe('http://127.0.0.1:8765');
    expect(redirectCspSource('https://app.example.com/cb')).toBe('https://app.example.com');
    expect(redirectCspSource('com.example.app:/cb')).toBe('com.example.app:');
    expect(redirectCspSource('http://[::1]:8765/cb')).toBe('http:');
  });
});
