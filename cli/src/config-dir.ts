import { homedir } from 'node:os';
import { join } from 'node:path';

/** TASKCTL_CONFIG_DIR, else the platform's config directory for taskctl. */
export function configDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.TASKCTL_CONFIG_DIR) return env.TASKCTL_CONFIG_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'taskctl');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'taskctl');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'taskctl');
}
