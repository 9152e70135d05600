/** PKCE (RFC 7636, S256) and unguessable `state` values, from Web Crypto so it runs in browsers and Node alike. */

export function randomToken(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A verifier of 43 characters from `[A-Za-z0-9_-]` (32 random bytes), inside RFC 7636's 43..128. */
export function createCodeVerifier(): string {
  return randomToken(32);
}

export async function codeChallengeS256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
