import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { TASKCTL, newConfigDir } from '../support/cli.js';

describe('taskctl writing into a closed pipe', () => {
  it('ends quietly when its reader has gone (`taskctl --help | head -1`), with no EPIPE stack', async () => {
    const child = spawn(process.execPath, [TASKCTL, '--help'], {
      env: { PATH: process.env.PATH ?? '', TASKCTL_CONFIG_DIR: newConfigDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader leaves before taskctl has written a byte.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));

    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
  });
});
