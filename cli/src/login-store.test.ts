import { existsSync, mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configDir } from './config-dir.js';
import { LoginStore, type SavedLogin } from './login-store.js';

const login = (server: string, refreshToken = 'rt-1'): SavedLogin => ({
  server,
  clientId: 'taskctl',
  accessToken: 'at',
  refreshToken,
  accessExpiresAt: Date.now() + 60_000,
  scope: 'tasks:read',
  savedAt: new Date().toISOString(),
});

describe('the token file', () => {
  it('is mode 0600 in a 0700 directory, replaced whole, with no temporary file left behind', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'taskctl-store-')), 'nested');
    const store = new LoginStore(dir);
    store.save(login('http://a'), { makeDefault: true });
    store.save(login('http://b'));
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readdirSync(dir)).toEqual(['credentials.json']);
    expect(store.get('http://a')?.refreshToken).toBe('rt-1');
    expect(store.defaultServer()).toBe('http://a');
    store.remove('http://a');
    expect(store.get('http://a')).toBeUndefined();
    expect(store.defaultServer()).toBeUndefined();
    expect(store.get('http://b')).toBeDefined();
  });

  it('runs one holder of the lock at a time', async () => {
    const store = new LoginStore(mkdtempSync(join(tmpdir(), 'taskctl-store-')));
    const order: string[] = [];
    const hold = (name: string) =>
      store.withLock(async () => {
        order.push(`${name} in`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        order.push(`${name} out`);
      });
    await Promise.all([hold('a'), hold('b')]);
    expect(order).toEqual(['a in', 'a out', 'b in', 'b out']);
    expect(existsSync(join(store.dir, 'credentials.lock'))).toBe(false);
  });

  it('breaks a lock left by a process that died holding it', async () => {
    const store = new LoginStore(mkdtempSync(join(tmpdir(), 'taskctl-store-')));
    const lock = join(store.dir, 'credentials.lock');
    writeFileSync(lock, '99999\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(await store.withLock(async () => 'ran')).toBe('ran');
  });
});

describe('the config directory', () => {
  it('is TASKCTL_CONFIG_DIR when set, else the platform config directory', () => {
    expect(configDir({ TASKCTL_CONFIG_DIR: '/x/y' }, 'linux')).toBe('/x/y');
    expect(configDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe('/cfg/taskctl');
    expect(configDir({ APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32')).toMatch(/Roaming.taskctl$/);
    expect(configDir({}, 'darwin')).toMatch(/Library\/Application Support\/taskctl$/);
  });
});
