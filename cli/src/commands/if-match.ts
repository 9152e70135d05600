import type { Result } from '@task-service/sdk';
import type { Context } from '../context.js';
import { CliError, usageError } from '../errors.js';

export const IF_MATCH_HELP = 'only if the task is still at this version: a version (3) or the ETag an answer gave ("3"); * for any';

/**
 * --if-match as the SDK's `ifMatch`: a bare version is a number, an ETag (`"3"`) or `*` is sent as it
 * is. A weak tag never matches an If-Match (docs/change-feed.md), so it is refused here rather than
 * sent to fail every time.
 */
export function ifMatchOption(text: string | undefined): string | number | undefined {
  if (text === undefined) return undefined;
  const value = text.trim();
  if (/^[1-9]\d{0,14}$/.test(value)) return Number(value);
  if (/^"[1-9]\d{0,14}"$/.test(value) || value === '*') return value;
  throw usageError(`--if-match takes a task's version (3) or its ETag ("3"), or * for any version, not ${JSON.stringify(text)}.`);
}

/**
 * The data of a conditional write's result; a 412 says the task moved on, which version it is at now
 * (the answer's ETag), and how to go on. Any other refusal reads as every command's.
 */
export async function unwrapConditional<T>(
  context: Context,
  result: Result<T>,
  write: { taskId: string; ifMatch: string | number | undefined; refused: 'changed' | 'deleted' },
): Promise<T> {
  const { taskId, ifMatch, refused } = write;
  if (result.error?.code !== 'PRECONDITION_FAILED') return context.unwrap(result);
  const current = /^"(\d+)"$/.exec(result.etag ?? '')?.[1];
  const named = typeof ifMatch === 'number' ? String(ifMatch) : (ifMatch ?? '').replaceAll('"', '');
  const now = current === undefined ? 'it has changed since' : `it is at version ${current} now`;
  const retry = current === undefined ? '' : `, then run this again with --if-match ${current} if you still mean it`;
  throw new CliError(`Task ${taskId} was not ${refused}: ${now}, not version ${named} that --if-match names. See it with \`taskctl tasks show ${taskId}\`${retry}.`);
}
