import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedDb, engines, insertAccount, type MigratedDb } from '../test-support/databases.js';
import { compiledQuery } from './compiled-query.js';
import { isPostgres } from './db.js';

const accountById = compiledQuery<[string], { id: string; email: string; task_count: number }>((db, $) =>
  db('accounts').select('id', 'email', 'task_count').where('id', $(0)),
);
const accountsByCountAbove = compiledQuery<[number, number], { id: string }>((db, $) =>
  db('accounts').select('id').where('task_count', '>', $(0)).orderBy('id').limit($(1)),
);
const takePlace = compiledQuery<[string, number], never>((db, $) => db('accounts').where('id', $(0)).andWhere('task_count', '<', $(1)).increment('task_count', 1));
const renameReturning = compiledQuery<[string, string], { email: string }>((db, $) => db('accounts').where('id', $(0)).update({ email: $(1) }).returning(['email']));

describe.each(engines)('compiled queries on %s', (engine) => {
  let store: MigratedDb;
  beforeAll(async () => {
    store = await createMigratedDb(engine);
  });
  afterAll(() => store.drop());

  it('reads the rows knex reads, with the values given at each run', async () => {
    const { db } = store;
    const first = await insertAccount(db, 3);
    const second = await insertAccount(db, 5);
    for (const id of [first, second]) {
      expect(await accountById.first(db, [id])).toEqual(await db('accounts').select('id', 'email', 'task_count').where('id', id).first());
    }
    expect(await accountById.first(db, ['no-such-account'])).toBeUndefined();
    const above = await accountsByCountAbove.all(db, [2, 100]);
    expect(above.map((row) => row.id)).toEqual(expect.arrayContaining([first, second]));
    expect(await accountsByCountAbove.all(db, [2, 1])).toHaveLength(1);
  });

  it('a conditional update changes the row only while its condition holds, and says how many rows it changed', async () => {
    const { db } = store;
    const id = await insertAccount(db, 1);
    expect(await takePlace.run(db, [id, 2])).toBe(1);
    expect(await takePlace.run(db, [id, 2])).toBe(0);
    expect((await accountById.first(db, [id]))?.task_count).toBe(2);
    expect(await renameReturning.all(db, [id, `renamed-${id}@example.com`])).toEqual([{ email: `renamed-${id}@example.com` }]);
  });

  it('in a transaction, runs on the transaction: a rollback undoes it', async () => {
    const { db } = store;
    const id = await insertAccount(db, 0);
    await expect(
      db.transaction(async (trx) => {
        expect(await takePlace.run(trx, [id, 10])).toBe(1);
        expect((await accountById.first(trx, [id]))?.task_count).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await accountById.first(db, [id]))?.task_count).toBe(0);
  });

  it('prepares a statement once per connection, however often it runs', async () => {
    const { db } = store;
    const id = await insertAccount(db, 0);
    const countOnce = compiledQuery<[string], { id: string }>((knex, $) => knex('accounts').select('id').where('id', $(0)).andWhere('task_count', '>=', 0));
    await db.transaction(async (trx) => {
      if (isPostgres(trx)) {
        for (let i = 0; i < 3; i++) await countOnce.first(trx, [id]);
        const prepared = await trx.raw(`select count(*)::int as n from pg_prepared_statements where statement like '%task_count" >= $2%'`);
        expect(prepared.rows[0].n).toBe(1);
        return;
      }
      const connection = await trx.client.acquireConnection();
      const prepare = connection.prepare.bind(connection);
      let prepared = 0;
      connection.prepare = (sql: string) => {
        prepared++;
        return prepare(sql);
      };
      try {
        for (let i = 0; i < 3; i++) expect(await countOnce.first(trx, [id])).toEqual({ id });
      } finally {
        connection.prepare = prepare;
      }
      expect(prepared).toBe(1);
    });
  });
});
