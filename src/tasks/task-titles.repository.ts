import type { Knex } from 'knex';
import { isPostgres } from '../platform/db.js';

export interface TitleMatch {
  id: string;
  title: string;
  status: 'open' | 'completed';
}

/** Past the highest character a title holds in practice: `prefix + TOP` bounds every string that starts with `prefix`. */
const TOP = '\uffff';

/**
 * The account's tasks whose title starts with `prefix` (case-insensitive) or whose id does, at most
 * `limit` of each, in title order: two ranges of indexes (013-task-title-prefix.ts and the primary key),
 * not a LIKE, so `%` and `_` typed by a person are plain characters.
 */
export async function tasksByPrefix(db: Knex, accountId: string, prefix: string, limit: number): Promise<TitleMatch[]> {
  const lowered = prefix.toLowerCase();
  const postgres = isPostgres(db);
  const title = postgres ? db.raw('lower(title) collate "C"') : db.raw('lower(title)');
  const id = postgres ? db.raw('id collate "C"') : db.raw('id');
  const [byTitle, byId] = await Promise.all([
    db('tasks')
      .select('id', 'title', 'status')
      .where('account_id', accountId)
      .andWhere(title, '>=', lowered)
      .andWhere(title, '<', lowered + TOP)
      .orderBy(title as unknown as string)
      .limit(limit) as Promise<TitleMatch[]>,
    db('tasks')
      .select('id', 'title', 'status')
      .where('account_id', accountId)
      .andWhere(id, '>=', lowered)
      .andWhere(id, '<', lowered + TOP)
      .orderBy(id as unknown as string)
      .limit(limit) as Promise<TitleMatch[]>,
  ]);
  const seen = new Set(byTitle.map((task) => task.id));
  return [...byTitle, ...byId.filter((task) => !seen.has(task.id))];
}
