import { createTaskClient, DEFAULT_RETRY_AFTER_SECONDS, TaskApiError, type Result, type TaskClient } from '@task-service/sdk';
import { configDir } from './config-dir.js';
import { nodeFetch } from './http-transport.js';
import { CliError, signInNeeded } from './errors.js';
import { LoginStore, type SavedLogin } from './login-store.js';
import { Output } from './output.js';
import { countdown, describeWindow, waitingOnThrottle } from './throttle.js';
import { isExpired, refreshingThroughStore } from './transport.js';

export const CLIENT_ID = 'taskctl';
export const DEFAULT_SERVER = 'http://localhost:3000';

/** The options every command takes (commander's global options). */
export interface GlobalOptions {
  server?: string;
  json?: boolean;
  maxWait: string;
}

/** What a command needs: where the server is, how to talk to it signed in, and how to print. */
export class Context {
  readonly store: LoginStore;
  readonly output: Output;
  readonly maxWaitSeconds: number;
  private readonly explicitServer: string | undefined;

  constructor(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env) {
    this.store = new LoginStore(configDir(env));
    this.output = new Output(options.json === true);
    const maxWait = Number(options.maxWait);
    if (!Number.isInteger(maxWait) || maxWait < 0) throw new CliError(`--max-wait must be a whole number of seconds, not "${options.maxWait}".`, 2);
    this.maxWaitSeconds = maxWait;
    this.explicitServer = options.server ?? (env.TASKCTL_SERVER || undefined);
    this.apiToken = env.TASKCTL_TOKEN || undefined;
  }

  readonly apiToken: string | undefined;

  /** --server, TASKCTL_SERVER, the saved login's server, or http://localhost:3000. */
  get server(): string {
    const server = this.explicitServer ?? this.store.defaultServer() ?? DEFAULT_SERVER;
    let url: URL;
    try {
      url = new URL(server);
    } catch {
      throw new CliError(`The server "${server}" is not a URL (expected e.g. ${DEFAULT_SERVER}).`, 2);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`The server "${server}" must be an http or https URL.`, 2);
    return url.href.replace(/\/+$/, '');
  }

  /** The transport of every request: waits out 429s within --max-wait, refreshes through the token file. */
  private transport(options: { waitOnThrottle?: boolean } = {}) {
    const server = this.server;
    const send = nodeFetch;
    const maxWait = options.waitOnThrottle === false ? 0 : this.maxWaitSeconds;
    return waitingOnThrottle(refreshingThroughStore(send, this.store, server), maxWait, (notice) => countdown(notice, process.stderr));
  }

  /** One request through the transport, for the endpoints the SDK has no method for. */
  send(request: Request): Promise<Response> {
    return this.transport()(request);
  }

  /** A refused answer of such a request, read already. */
  explainResponse(response: Response, body: unknown): Promise<CliError> {
    return this.explain(new TaskApiError(response.status, body, response.headers));
  }

  /** A client without credentials (sign-in endpoints, metadata). */
  anonymousClient(): TaskClient {
    return createTaskClient({ baseUrl: this.server, fetch: this.transport(), oauth: { clientId: CLIENT_ID } });
  }

  /** A client signed in with TASKCTL_TOKEN or the saved login; exit 4 when there is neither. */
  client(options: { waitOnThrottle?: boolean } = {}): TaskClient {
    const fetch = this.transport(options);
    if (this.apiToken) return createTaskClient({ baseUrl: this.server, accessToken: this.apiToken, fetch });
    const login = this.login();
    return createTaskClient({
      baseUrl: this.server,
      oauth: { clientId: login.clientId },
      // An access token known to be expired is not sent: the SDK refreshes first.
      accessToken: isExpired(login) ? undefined : login.accessToken,
      refreshToken: login.refreshToken,
      fetch,
    });
  }

  login(): SavedLogin {
    const login = this.store.get(this.server);
    if (!login) throw signInNeeded(`Not signed in to ${this.server}. Run \`taskctl login\` (or \`taskctl login --device\` without a browser), or set TASKCTL_TOKEN.`);
    return login;
  }

  /** The data of a result, or the error as a CliError a person can act on. */
  async unwrap<T>(result: Result<T>): Promise<T> {
    if (!result.error) return result.data;
    throw await this.explain(result.error);
  }

  async explain(error: TaskApiError): Promise<CliError> {
    if (error.status === 401) {
      const how = this.apiToken
        ? 'TASKCTL_TOKEN was refused (unknown, expired or revoked API token).'
        : `Your sign-in to ${this.server} has expired or was revoked. Run \`taskctl login\` again.`;
      return signInNeeded(how);
    }
    if (error.status === 429 && error.code === 'RATE_LIMIT_EXCEEDED') {
      const body = error.body as { window?: string; retryAfterSeconds?: number } | undefined;
      const notice = { window: body?.window, seconds: error.retryAfterSeconds ?? body?.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS };
      return new CliError(
        `Rate limited: ${describeWindow(notice.window)} is used up. The server asks to wait ${notice.seconds} s, more than --max-wait allows (${this.maxWaitSeconds} s). Try again later, or raise --max-wait.`,
      );
    }
    if (error.code === 'INSUFFICIENT_SCOPE') {
      const scope = (error.body as { requiredScope?: string } | undefined)?.requiredScope;
      return new CliError(`${error.message} Sign in again granting it: taskctl login --scope "${scope ?? '<scope>'} ..."`);
    }
    if (error.code === 'VALIDATION_FAILED') {
      const details = (error.body?.details ?? []).map((detail) => `  ${detail.path}: ${detail.message}`).join('\n');
      return new CliError(`The server refused the request: ${error.message}${details ? `\n${details}` : ''}`);
    }
    return new CliError(`${error.message}${error.code !== 'UNKNOWN' ? ` (${error.code})` : ` (HTTP ${error.status})`}`);
  }
}
