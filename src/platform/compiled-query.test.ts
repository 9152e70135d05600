import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnotherRequest, createMigratedDb, engines, insertAccount, type MigratedDb } from '../test-support/databases.js';
import { compiledQuery } from './compiled-query.js';
import { isPostgres } from './db.js';
import { transaction } from './transaction.js';

const accountById = compiledQuery<[string], { id: string; email: string; task_count: number }>((db, $) =>
  db('accounts').select('id', 'email', 'task_count').where('id', $(0)),
);
const accountsByCountAbove = compiledQuery<[number, number], { id: string }>((db, $) =>
  db('accounts').select('id').where('task_count', '>', $(0)).orderBy('id').limit($(1)),
);
const takePlace = compiledQuery<[string, number], never>((db, $) => db('accounts').where('id', $(0)).andWhere('task_count', '<', $(1)).increment('task_count', 1));
const preparedCount = compiledQuery<[], { n: number }>((db) =>
  db.raw(`select count(*)::int as n from pg_prepared_statements where statement like '%task_count" >= $2%' and statement not like '%pg_prepared_statements%'`),
);
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

  it('on PostgreSQL, a statement gives the rows knex reads on every run, numbers as numbers', async ({ skip }) => {
    const { db } = store;
    if (!isPostgres(db)) return skip();
    const id = await insertAccount(db, 7);
    const withTime = compiledQuery<[string], { id: string; task_count: number; created_at: number; nothing: null }>((knex, $) =>
      knex('accounts').select('id', 'task_count', 'created_at', knex.raw('null as nothing')).where('id', $(0)),
    );
    await db.transaction(async (trx) => {
      const expected = await trx('accounts').select('id', 'task_count', 'created_at', trx.raw('null as nothing')).where('id', id).first();
      expect(typeof expected.created_at).toBe('number');
      for (let i = 0; i < 3; i++) expect(await withTime.first(trx, [id])).toEqual(expected);
      for (let i = 0; i < 2; i++) expect(await takePlace.run(trx, [id, 100])).toBe(1);
    });
  });

  it('a statement the database refuses rejects with its error, and the connection goes on serving', async () => {
    const { db } = store;
    const id = await insertAccount(db, 0);
    const other = await insertAccount(db, 0);
    await db.transaction(async (trx) => {
      // The same e-mail twice: the unique index refuses it, on the first run and on a later one.
      for (let i = 0; i < 2; i++) {
        await expect(renameReturning.all(trx, [other, `${id}@example.com`])).rejects.toMatchObject({ code: expect.stringMatching(/^(23505|SQLITE_CONSTRAINT_UNIQUE)$/) });
        if (isPostgres(trx)) await trx.raw('rollback');
        if (isPostgres(trx)) await trx.raw('begin');
      }
      expect(await accountById.first(trx, [id])).toMatchObject({ id, task_count: 0 });
    });
  });

  it('on PostgreSQL, a value pg cannot send rejects the run, and the connection goes on serving', async ({ skip }) => {
    const { db } = store;
    if (!isPostgres(db)) return skip();
    const id = await insertAccount(db, 0);
    const unsendable = {
      toPostgres: () => {
        throw new Error('cannot send this');
      },
    };
    await db.transaction(async (trx) => {
      await expect(accountById.first(trx, [unsendable as never])).rejects.toThrow('cannot send this');
      expect(await accountById.first(trx, [id])).toMatchObject({ id });
      await expect(accountById.first(trx, [unsendable as never])).rejects.toThrow('cannot send this');
      expect(await accountById.first(trx, [id])).toMatchObject({ id });
    });
  });

  it('a LIMIT given at each run (on SQLite written so its planner does not read it) takes that many rows each time', async () => {
    const { db } = store;
    for (let i = 0; i < 4; i++) await insertAccount(db, 50 + i);
    const counts = [];
    for (const limit of [1, 3, 2, 4]) counts.push((await accountsByCountAbove.all(db, [49, limit])).length);
    expect(counts).toEqual([1, 3, 2, 4]);
  });

  it('a statement outside a transaction never runs inside one that holds the connection: it sees no write that is then rolled back', async () => {
    const { db } = store;
    const id = await insertAccount(db, 0);
    let seen: Promise<{ task_count: number } | undefined> | undefined;
    await expect(
      transaction(db, async (trx) => {
        expect(await takePlace.run(trx, [id, 100])).toBe(1);
        // SQLite: the one connection is held by the transaction, so this read waits for its turn.
        seen = asAnotherRequest(() => accountById.first(db, [id]));
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect((await seen)?.task_count).toBe(0);
    expect((await accountById.first(db, [id]))?.task_count).toBe(0);
  });

  it('on PostgreSQL, prepares a statement once per connection, however often it runs', async ({ skip }) => {
    const { db } = store;
    if (!isPostgres(db)) return skip();
    const id = await insertAccount(db, 0);
    const countOnce = compiledQuery<[string], { id: string }>((knex, $) => knex('accounts').select('id').where('id', $(0)).andWhere('task_count', '>=', 0));
    await transaction(db, async (trx) => {
      for (let i = 0; i < 3; i++) expect(await countOnce.first(trx, [id])).toEqual({ id });
      expect((await preparedCount.first(trx, []))!.n).toBe(1);
    });
  });
});
