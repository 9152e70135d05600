import { describe, expect, it } from 'vitest';
import { breakingChanges, checkAgainstRelease } from './breaking-changes.js';
import { extraBreakingChanges } from './breaking-extra-rules.js';
import { baseDocument, changedDocument, fixtures } from './breaking-fixtures.js';

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

  it('names a removed response property with its operation and status', () => {
    expect(extra('response property removed')).toContain('GET /tasks/{taskId}: response 200 property `notes` removed');
    expect(extra('response property removed')).toContain('GET /tasks: response 200 property `tasks[].notes` removed');
  });
  it('finds a response property that may now be of another type', () => {
    expect(extra('response property became nullable')).toContain('GET /tasks/{taskId}: response 200 property `title` may now be null');
    expect(extra('response property type changed')).toContain('GET /tasks/{taskId}: response 200 property `version` may now be string');
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
  it('lets it through with the major bumped', () => {
    expect(checkAgainstRelease(released, withoutNotes('2.0.0')).ok).toBe(true);
  });
  it('lets a new optional property through', () => {
    const doc = changedDocument(fixtures.find((fixture) => fixture.name === 'optional request property added')!);
    expect(checkAgainstRelease(released, doc)).toEqual({ ok: true, lines: ['No breaking change since 1.0.0.'] });
  });
});
