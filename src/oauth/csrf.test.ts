import { describe, expect, it } from 'vitest';
import { CSRF_COOKIE, createCsrf, csrfKey } from './csrf.js';

const csrf = createCsrf(csrfKey('a signing secret of at least thirty-two characters'));
const params = ['code', 'taskctl', 'http://127.0.0.1:1/cb', 'c'.repeat(43), 'S256', 'state', 'tasks:read'];
const NOW = 1_800_000_000_000;

function minted() {
  const nonce = csrf.nonceFor(undefined);
  return { nonce, cookieHeader: `other=1; ${CSRF_COOKIE}=${nonce}`, token: csrf.mint(nonce, params, NOW) };
}

describe('the consent form CSRF token', () => {
  it('verifies with its cookie and the parameters it was minted for', () => {
    const { cookieHeader, token } = minted();
    expect(csrf.verify(cookieHeader, token, params, NOW + 5_000)).toBe(true);
  });

  it('fails without the cookie, with another cookie, or with other parameters', () => {
    const { cookieHeader, token } = minted();
    expect(csrf.verify(undefined, token, params, NOW)).toBe(false);
    expect(csrf.verify(`${CSRF_COOKIE}=${minted().nonce}`, token, params, NOW)).toBe(false);
    expect(csrf.verify(cookieHeader, token, params.map((value, i) => (i === 6 ? 'tasks:read tasks:write' : value)), NOW)).toBe(false);
    expect(csrf.verify(cookieHeader, token, params.map((value, i) => (i === 5 ? undefined : value)), NOW)).toBe(false);
  });

  it('fails after 10 minutes, and for tokens from the future or of the wrong shape', () => {
    const { cookieHeader, token } = minted();
    expect(csrf.verify(cookieHeader, token, params, NOW + 600_999)).toBe(true);
    expect(csrf.verify(cookieHeader, token, params, NOW + 601_000)).toBe(false);
    expect(csrf.verify(cookieHeader, token, params, NOW - 2_000)).toBe(false);
    for (const forged of ['', 'x', `${NOW / 1000}.short`, `${NOW / 1000}.${'A'.repeat(43)}`]) {
      expect(csrf.verify(cookieHeader, forged, params, NOW)).toBe(false);
    }
  });

  it('is keyed: another server secret does not accept it', () => {
    const { cookieHeader, token } = minted();
    const other = createCsrf(csrfKey('another signing secret of thirty-two characters'));
    expect(other.verify(cookieHeader, token, params, NOW)).toBe(false);
  });

  it('keeps a well-formed cookie nonce across pages and replaces a malformed one', () => {
    const { nonce } = minted();
    expect(csrf.nonceFor(`${CSRF_COOKIE}=${nonce}`)).toBe(nonce);
    expect(csrf.nonceFor(`${CSRF_COOKIE}=short`)).not.toBe('short');
  });

  it('sets an HttpOnly SameSite=Strict cookie, Secure over https', () => {
    expect(csrf.cookie('n', false)).toBe(`${CSRF_COOKIE}=n; Max-Age=600; HttpOnly; SameSite=Strict`);
    expect(csrf.cookie('n', true)).toMatch(/; Secure$/);
  });
});
