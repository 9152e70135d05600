import { describe, expect, it } from 'vitest';
import { createPasswords } from './passwords.js';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

describe('passwords', () => {
  it('are hashed with argon2id and the OWASP parameters, and verify only with the right password', async () => {
    const passwords = createPasswords();
    const hash = await passwords.hash('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await passwords.verify(hash, 'correct horse battery staple')).toBe(true);
    expect(await passwords.verify(hash, 'Correct horse battery staple')).toBe(false);
    expect(await passwords.verify('not a hash', 'anything')).toBe(false);
  });

  it('an unknown account (no hash) is refused after the same argon2 work as a wrong password', async () => {
    const passwords = createPasswords();
    const hash = await passwords.hash('correct horse battery staple');
    expect(await passwords.verify(undefined, 'correct horse battery staple')).toBe(false);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await timed(() => passwords.verify(hash, 'wrong password')));
      unknown.push(await timed(() => passwords.verify(undefined, 'wrong password')));
    }
    // Skipping the dummy verification would make the unknown case ~100 times faster.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });
});
