import { randomUUID } from 'node:crypto';
import type { Db } from '../platform/db.js';
import { indexTasks, type IndexedFields } from '../tasks/task-index.repository.js';
import type { ListQuery } from '../tasks/tasks.service.js';

// Tasks as a person keeps them, for the search bench (bench/search.bench.ts) and the plan check
// (contract-tests/tasks/finding-plans.test.ts): titles and notes from a vocabulary some words of which
// are common and some rare, a dozen labels and a rare one, priorities, due times or none, a third
// completed. The same seed gives the same tasks.

const COMMON = ['report', 'meeting', 'plan', 'review', 'call', 'email', 'budget', 'draft', 'team', 'client', 'invoice', 'release', 'design', 'notes', 'update'];
const WORDS = [...COMMON, ...Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`)];
const LABELS = ['home', 'work', 'errands', 'finance', 'health', 'family', 'garden', 'car', 'travel', 'reading', 'music', 'sport'];
export const RARE_LABEL = 'rare';
export const RARE_WORD = WORDS[397]!;
const DAY = 86_400_000;

/** A small deterministic generator (mulberry32). */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Words drawn with a skew: the first ones far more often (roughly Zipf).
  const word = () => WORDS[Math.floor(WORDS.length * next() ** 3)]!;
  const words = (min: number, max: number) => Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, word).join(' ');
  return { next, word, words };
}

/** Stores `perAccount` tasks for each account straight in the database, then indexes their words and labels. */
export async function seedSearchCorpus(db: Db, accountIds: readonly string[], perAccount: number, seed = 7): Promise<void> {
  const random = generator(seed);
  const now = Date.now();
  for (const accountId of accountIds) {
    const rows = Array.from({ length: perAccount }, (_, i) => {
      const created = now - 365 * DAY + Math.floor((i / perAccount) * 365 * DAY);
      const labels = LABELS.filter(() => random.next() < 0.12);
      if (i % 200 === 0) labels.push(RARE_LABEL);
      const completed = random.next() < 1 / 3;
      return {
        id: randomUUID(),
        account_id: accountId,
        title: random.words(3, 7),
        notes: random.next() < 0.5 ? random.words(5, 15) : null,
        status: completed ? 'completed' : 'open',
        priority: 1 + Math.floor(random.next() * 4),
        due_at: random.next() < 0.7 ? now + Math.floor((random.next() * 90 - 30) * DAY) : null,
        labels: JSON.stringify(labels),
        completed_at: completed ? created + DAY : null,
        created_at: created,
        updated_at: created + Math.floor(random.next() * 30 * DAY),
        change_seq: i + 1,
      };
    });
    for (let i = 0; i < rows.length; i += 1000) {
      const batch = rows.slice(i, i + 1000);
      await db.batchInsert('tasks', batch, 500);
      await indexTasks(db, batch as IndexedFields[]);
    }
    await db('accounts').where('id', accountId).update({ task_count: perAccount, task_change_seq: perAccount });
  }
}

/** The query shapes the bench times and the plan check explains: every filter alone and combined, each sort, `q` with one and three words. */
export function searchShapes(now = Date.now()): { name: string; query: string }[] {
  const day = (offset: number) => new Date(now + offset * DAY).toISOString();
  return [
    { name: 'plain', query: '' },
    { name: 'status=open', query: 'status=open' },
    { name: 'q, one common word', query: 'q=rep' },
    { name: 'q, one rare word', query: `q=${RARE_WORD}` },
    { name: 'q, three words', query: 'q=rep%20mee%20pla' },
    { name: 'label', query: 'label=home' },
    { name: 'label, rare', query: `label=${RARE_LABEL}` },
    { name: 'label, two', query: 'label=home&label=work' },
    { name: 'priority', query: 'priority=1' },
    { name: 'priority, two', query: 'priority=1&priority=2' },
    { name: 'due next 7 days', query: `dueAfter=${day(0)}&dueBefore=${day(7)}` },
    { name: 'overdue', query: `dueBefore=${day(0)}&status=open` },
    { name: 'hasDue=false', query: 'hasDue=false' },
    { name: 'sort=-created', query: 'sort=-created' },
    { name: 'sort=updated', query: 'sort=updated' },
    { name: 'sort=-updated', query: 'sort=-updated' },
    { name: 'sort=due', query: 'sort=due' },
    { name: 'sort=priority', query: 'sort=priority' },
    { name: 'open, label, by due', query: 'status=open&label=home&sort=due' },
    { name: 'q, label, priority, by priority', query: 'q=rep&label=work&priority=1&sort=priority' },
    { name: 'q, open, by -updated', query: 'q=meeting&status=open&sort=-updated' },
    { name: 'everything', query: `q=rep%20pla&label=work&priority=1&priority=2&status=open&dueAfter=${day(-30)}&dueBefore=${day(60)}&sort=due` },
  ];
}

/** A shape's query string as the service's list query. */
export function listQueryOf(query: string): ListQuery {
  const params = new URLSearchParams(query);
  const one = (name: string) => params.get(name) ?? undefined;
  const hasDue = one('hasDue');
  return {
    status: one('status') as ListQuery['status'],
    q: one('q'),
    label: params.getAll('label').length > 0 ? params.getAll('label') : undefined,
    priority: params.getAll('priority').length > 0 ? params.getAll('priority').map(Number) : undefined,
    dueAfter: one('dueAfter'),
    dueBefore: one('dueBefore'),
    hasDue: hasDue === undefined ? undefined : hasDue === 'true',
    sort: one('sort') as ListQuery['sort'],
  };
}
