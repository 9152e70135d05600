/**
 * Measures candidate OpenAPI diff libraries on the breaking-change fixtures and on this repository's
 * OpenAPI 3.1 document; the table in docs/versioning.md is its output. The candidates are not
 * dependencies of the project: install them into a scratch folder and name it, e.g.
 *
 *   npm install --prefix /tmp/diff-tools --ignore-scripts openapi-diff api-smart-diff \
 *     @useoptic/openapi-utilities @useoptic/rulesets-base @useoptic/standard-rulesets
 *   node --import tsx scripts/breaking-tools-evaluation.ts /tmp/diff-tools
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parse } from 'yaml';
import { breakingChanges } from './breaking-changes.js';
import { dereference } from './breaking-extra-rules.js';
import { baseDocument, changedDocument, fixtures, type Json } from './breaking-fixtures.js';

type Detector = (before: Json, after: Json) => Promise<string[]>;

const toolsDir = process.argv[2];
if (!toolsDir) throw new Error('usage: breaking-tools-evaluation.ts <folder the candidates are installed in>');
const requireTool = createRequire(join(toolsDir, 'package.json'));

const candidates: Record<string, () => Detector> = {
  'openapi-diff (Atlassian)': () => {
    const openapiDiff = requireTool('openapi-diff');
    return async (before, after) => {
      const spec = (doc: Json, location: string) => ({ content: JSON.stringify(doc), location, format: 'openapi3' });
      const outcome = await openapiDiff.diffSpecs({ sourceSpec: spec(before, 'before.json'), destinationSpec: spec(after, 'after.json') });
      return outcome.breakingDifferencesFound ? outcome.breakingDifferences.map((d: Json) => d.code) : [];
    };
  },
  'api-smart-diff': () => {
    const { apiCompare } = requireTool('api-smart-diff');
    return async (before, after) =>
      apiCompare(before, after)
        .diffs.filter((d: Json) => d.type === 'breaking')
        .map((d: Json) => d.description ?? d.path.join('/'));
  },
  '@useoptic/standard-rulesets (breaking-changes)': () => {
    const { TestHelpers } = requireTool('@useoptic/rulesets-base');
    const { BreakingChangesRuleset } = requireTool('@useoptic/standard-rulesets');
    return async (before, after) => {
      const results: Json[] = await TestHelpers.runRulesWithInputs([new BreakingChangesRuleset()], dereference(before), dereference(after));
      return results.filter((r) => !r.passed && !r.exempted).map((r) => r.error ?? r.name);
    };
  },
  'this repository (api-smart-diff and its extra rules)': () => async (before, after) => breakingChanges(before, after).map((c) => c.message),
};

const ours = parse(readFileSync(new URL('../openapi/openapi.yaml', import.meta.url), 'utf8')) as Json;
/** Our document with one response property removed: a tool that cannot read OpenAPI 3.1 misses it. */
const oursWithoutProperty = structuredClone(ours);
delete oursWithoutProperty.components.schemas.Task.properties.notes;

const rows: string[] = [];
for (const [name, load] of Object.entries(candidates)) {
  let detect: Detector;
  try {
    detect = load();
  } catch (error) {
    rows.push(`| ${name} | not loadable: ${(error as Error).message.split('\n')[0]} | | | |`);
    continue;
  }
  let breakingRight = 0;
  let nonBreakingRight = 0;
  const missed: string[] = [];
  const falseAlarms: string[] = [];
  for (const fixture of fixtures) {
    let found: string[];
    try {
      found = await detect(baseDocument(), changedDocument(fixture));
    } catch {
      // A tool that cannot read the pair got it wrong either way.
      (fixture.breaking ? missed : falseAlarms).push(`${fixture.name} (error)`);
      continue;
    }
    const said = found.length > 0;
    if (said !== fixture.breaking) (fixture.breaking ? missed : falseAlarms).push(fixture.name);
    else if (fixture.breaking) breakingRight++;
    else nonBreakingRight++;
  }
  const onOurs = async () => {
    try {
      const same = await detect(ours, structuredClone(ours));
      const removed = await detect(ours, oursWithoutProperty);
      return `${same.length === 0 ? 'no false alarm' : `${same.length} false alarms`}; removed \`Task.notes\` ${removed.length > 0 ? 'found' : 'missed'}`;
    } catch (error) {
      return `fails: ${(error as Error).message.split('\n')[0]!.slice(0, 80)}`;
    }
  };
  const breakingTotal = fixtures.filter((f) => f.breaking).length;
  const nonBreakingTotal = fixtures.length - breakingTotal;
  rows.push(
    `| ${name} | ${breakingRight}/${breakingTotal} | ${nonBreakingRight}/${nonBreakingTotal} | ${await onOurs()} | ${missed.join('; ') || '-'} | ${falseAlarms.join('; ') || '-'} |`,
  );
}
const header = ['| library | breaking found | non-breaking passed | on openapi/openapi.yaml (3.1) | breaking missed | false alarms |', '| --- | --- | --- | --- | --- | --- |'];
process.stdout.write([...header, ...rows, ''].join('\n'));
