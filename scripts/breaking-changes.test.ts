import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { breakingChanges, checkAgainstRelease } from './breaking-changes.js';
import { extraBreakingChanges } from './breaking-extra-rules.js';
import { baseDocument, changedDocument, fixtures, type Json } from './breaking-fixtures.js';

describe('breaking changes', () => {
  it.each(fixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const found = breakingChanges(baseDocument(), changedDocument(fixture));
    expect(found.length > 0, found.map((change) => change.message).join('; ')).toBe(fixture.breaking);
  });

  it('has at least 25 breaking and 25 non-breaking pairs', () => {
    expect(fixtures.filter((fixture) => fixture.breaking).length).toBeGreaterThanOrEqual(25);
    expect(fixtures.filter((fixture) => !fixture.breaking).length).toBeGreaterThanOrEqual(25);
  });
});

describe('the rules added on top of the library', () => {
  const fixture = (name: string) => fixtures.find((candidate) => candidate.name === name)!;
  const extra = (name: string) => extraBreakingChanges(baseDocument(), changedDocument(fixture(name))).map((change) => change.message);

  it('names a removed response property with its operation, status and media type', () => {
    expect(extra('response property removed')).toContain('GET /tasks/{taskId}: response 200 (application/json): property `notes` removed');
    expect(extra('response property removed')).toContain('GET /tasks: response 200 (application/json): property `tasks[].notes` removed');
  });
  it('finds a response property that may now be of another type', () => {
    expect(extra('response property became nullable')).toContain('GET /tasks/{taskId}: response 200 (application/json): property `title` may now be null');
    expect(extra('response property type changed')).toContain('GET /tasks/{taskId}: response 200 (application/json): property `version` may now be string');
  });
  it('names a webhook, where in its payload, and the value', () => {
    expect(extra('webhook removed')).toEqual(['webhook task.deleted: removed (no longer sent)']);
    expect(extra('webhook payload property removed')).toEqual(['webhook task.created: payload (application/json): property `timestamp` removed']);
    expect(extra('webhook payload enum value added')).toEqual(['webhook task.created: payload (application/json): property `type` may now be "task.archived" (enum value added)']);
    expect(extra('required webhook header removed')).toEqual(['webhook task.created: request: required header `webhook-id` removed']);
  });
  it('looks into oneOf and allOf, and at info.version', () => {
    expect(extra('type changed inside oneOf')).toContain('GET /changes: response 200 (application/json): property `changes[].oneOf[1].taskId` may now be integer');
    expect(extra('response property removed inside allOf')).toEqual(['GET /changes: response 200 (application/json): property `changes[].oneOf[0].kind` removed']);
    expect(extra('info version went down')).toEqual(['info.version went down from 1.0.0 to 0.9.0']);
    expect(extra('request property removed (additionalProperties false)')).toEqual([
      'POST /tasks: request body (application/json): property `labels` removed: a request that sends it is now refused (additionalProperties is false)',
    ]);
  });
  it('lets an enum marked x-open-enum grow in a response, and only that one', () => {
    expect(extra('open enum value added (x-open-enum)')).toEqual([]);
    expect(extra('response enum value added')).toContain('GET /tasks/{taskId}: response 200 (application/json): property `status` may now be "archived" (enum value added)');
  });
  it('finds a parameter type changed, a scope added and a renamed path parameter', () => {
    expect(extra('query parameter type changed')).toEqual(['GET /tasks: query parameter `limit` type changed from integer to boolean']);
    expect(extra('security scope added to an operation')).toEqual(['POST /tasks: security requirements tightened (a scope or scheme added)']);
    expect(extra('path parameter renamed')).toContain('GET /tasks/{taskId}: path parameter renamed (now /tasks/{id})');
  });
  it('says nothing of a widened type or a scope taken away', () => {
    expect(extra('request type widened (integer to number)')).toEqual([]);
    expect(extra('security scope removed from an operation')).toEqual([]);
    expect(extra('response property added')).toEqual([]);
  });
});

describe('the words of every line: the operation (or webhook), where in it, and the value', () => {
  const lines = (name: string) => breakingChanges(baseDocument(), changedDocument(fixtures.find((candidate) => candidate.name === name)!)).map((change) => change.message);

  it.each([
    ['response media type removed', 'GET /tasks/{taskId}: response 200: media type `application/json` removed'],
    ['request media type removed', 'POST /tasks: request body media type `application/json` no longer accepted'],
    ['required response header removed', 'POST /tasks: response 201: required header `Location` removed'],
    ['request enum value removed', 'POST /tasks: request body (application/json): property `priority` no longer takes "low" (enum value removed)'],
    ['query parameter enum value removed', 'GET /tasks: query parameter `status`: its value no longer takes "all" (enum value removed)'],
    ['request maxLength decreased', 'POST /tasks: request body (application/json): property `title`: maxLength changed from 200 to 100'],
    ['optional query parameter became required', 'GET /tasks: query parameter `limit` now required'],
    ['operation removed', 'DELETE /tasks/{taskId}: operation removed'],
  ])('%s', (name, line) => {
    expect(lines(name)).toContain(line);
  });

  it('never prints the library\'s raw wording', () => {
    const all = fixtures.flatMap((fixture) => breakingChanges(baseDocument(), changedDocument(fixture)).map((change) => change.message));
    expect(all.filter((line) => /\[(Added|Removed|Replaced)\]|annotation|^remove at|^add at|^replace at/.test(line))).toEqual([]);
  });
});

describe('the release gate', () => {
  const released = baseDocument();
  const withoutNotes = (version: string) => {
    const doc = changedDocument(fixtures.find((fixture) => fixture.name === 'response property removed')!);
    doc.info.version = version;
    return doc;
  };

  it('refuses a breaking change within the major version, naming it', () => {
    const { ok, lines } = checkAgainstRelease(released, withoutNotes('1.1.0'));
    expect(ok).toBe(false);
    expect(lines.join('\n')).toContain('property `notes` removed');
  });
  it('refuses a version lower than the released one, even as a major', () => {
    const doc = changedDocument(fixtures.find((fixture) => fixture.name === 'info version went down')!);
    expect(checkAgainstRelease(released, doc)).toMatchObject({ ok: false });
  });
  it('lets it through with the major bumped', () => {
    expect(checkAgainstRelease(released, withoutNotes('2.0.0')).ok).toBe(true);
  });
  it('lets a new optional property through', () => {
    const doc = changedDocument(fixtures.find((fixture) => fixture.name === 'optional request property added')!);
    expect(checkAgainstRelease(released, doc)).toEqual({ ok: true, lines: ['No breaking change since 1.0.0.'] });
  });
});

describe('the open enums of openapi/openapi.yaml (x-open-enum, docs/versioning.md)', () => {
  const document = () => parse(readFileSync(new URL('../openapi/openapi.yaml', import.meta.url), 'utf8')) as Json;

  it.each([
    ['a new error code', (d: Json) => d.components.schemas.ErrorCode.enum.push('SOMETHING_NEW')],
    ['a new webhook event type', (d: Json) => d.components.schemas.WebhookEventType.enum.push('task.archived')],
    ['a new connector type', (d: Json) => d.components.schemas.ConnectorType.enum.push('jira')],
  ])('may grow in a minor version: %s', (_name, grow) => {
    const released = document();
    const next = document();
    grow(next);
    next.info.version = '1.1.0';
    expect(checkAgainstRelease(released, next)).toEqual({ ok: true, lines: [`No breaking change since ${released.info.version}.`] });
  });

  it('are the only ones that may: a new task status is still a breaking change', () => {
    const next = document();
    next.components.schemas.TaskStatus.enum.push('archived');
    expect(checkAgainstRelease(document(), next).ok).toBe(false);
  });
});
