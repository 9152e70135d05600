import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** One sign-in to one server: what `taskctl login` obtained and every refresh since. */
export interface SavedLogin {
  server: string;
  clientId: string;
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds when the access token expires. */
  accessExpiresAt: number;
  scope: string;
  savedAt: string;
}

interface StoreFile {
  version: 1;
  /** The server of the latest login: used when neither --server nor TASKCTL_SERVER says otherwise. */
  defaultServer?: string;
  logins: Record<string, SavedLogin>;
}

const FILE = 'credentials.json';
const LOCK = 'credentials.lock';
/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 30_000;
const LOCK_POLL_MS = 50;

/**
 * The token file: one JSON file in the config directory, mode 0600 (the directory 0700), always
 * replaced whole (a temporary file, fsync, rename), so a crash leaves the old file or the new one,
 * never half of either. Refreshes happen under a lock file, so two taskctl processes never spend
 * the same refresh token (rotation would make the second one a reuse and revoke the login).
 */
export class LoginStore {
  readonly file: string;
  private readonly lockFile: string;

  constructor(readonly dir: string) {
    this.file = join(dir, FILE);
    this.lockFile = join(dir, LOCK);
  }

  get(server: string): SavedLogin | undefined {
    return this.read().logins[server];
  }

  defaultServer(): string | undefined {
    return this.read().defaultServer;
  }

  save(login: SavedLogin, options: { makeDefault?: boolean } = {}): void {
    const data = this.read();
    data.logins[login.server] = login;
    if (options.makeDefault) data.defaultServer = login.server;
    this.write(data);
  }

  remove(server: string): void {
    const data = this.read();
    if (!(server in data.logins)) return;
    delete data.logins[server];
    if (data.defaultServer === server) delete data.defaultServer;
    this.write(data);
  }

  /** Runs `fn` holding the lock file (waits for another process's, breaks one left by a dead process). */
  async withLock<T>(fn: () => Promise<T>, timeoutMs = 60_000): Promise<T> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const fd = openSync(this.lockFile, 'wx', 0o600);
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        if (this.lockIsStale()) {
          rmSync(this.lockFile, { force: true });
          continue;
        }
        if (Date.now() > deadline) throw new Error(`Another taskctl holds ${this.lockFile}; remove it if no taskctl is running.`);
        await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      }
    }
    try {
      return await fn();
    } finally {
      rmSync(this.lockFile, { force: true });
    }
  }

  private lockIsStale(): boolean {
    try {
      return Date.now() - statSync(this.lockFile).mtimeMs > STALE_LOCK_MS;
    } catch {
      return false;
    }
  }

  private read(): StoreFile {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, logins: {} };
      throw err;
    }
    const parsed = JSON.parse(text) as Partial<StoreFile>;
    return { version: 1, logins: {}, ...parsed };
  }

  private write(data: StoreFile): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.${Date.now()}.tmp`;
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(data, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.file);
  }
}
