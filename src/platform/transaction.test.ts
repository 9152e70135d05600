import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnotherRequest, createMigratedDb, engines, insertAccount, type MigratedDb } from '../test-support/databases.js';
import { compiledQuery } from './compiled-query.js';
import { closeDb, createDb, isPostgres, poolCounts, type Db } from './db.js';
import { afterCommit, knexTransaction, readNow, transaction, transactionNow, type Transaction } from './transaction.js';

const countOf = compiledQuery<[string], { task_count: number }>((db, $) => db('accounts').select('task_count').where('id', $(0)));
const setCount = compiledQuery<[string, number], never>((db, $) => db('accounts').where('id', $(0)).update({ task_count: $(1) }));
const addOne = compiledQuery<[string], never>((db, $) => db('accounts').where('id', $(0)).increment('task_count', 1));
const insertWithId = compiledQuery<[string, string], never>((db, $) =>
  db('accounts').insert({ id: $(0), email: $(1), password_hash: 'not-a-real-hash', task_count: 0, created_at: 0 }),
);
const backendPid = compiledQuery<[], { pid: number }>((db) => db.raw('select pg_backend_pid() as pid'));

/** Whether the transaction a statement runs on is still open (SQLite: better-sqlite3's connection; PostgreSQL: knex's transaction). */
function inTransactionNow(connection: unknown): boolean {
  const sqlite = connection as { inTransaction?: boolean };
  if (typeof sqlite.inTransaction === 'boolean') return sqlite.inTransaction;
  return !(connection as { isCompleted: () => boolean }).isCompleted();
}

describe.each(engines)('transaction on %s', (engine) => {
  let store: MigratedDb;
  let db: Db;
  beforeAll(async () => {
    store = await createMigratedDb(engine);
    db = store.db;
  });
  afterAll(() => store.drop());

  const count = async (id: string) => (await countOf.first(db, [id]))?.task_count;

  it('commits the work and answers what it answered', async () => {
    const id = await insertAccount(db, 0);
    const answer = await transaction(db, async (trx) => {
      await setCount.run(trx, [id, 5]);
      await addOne.run(trx, [id]);
      return (await countOf.first(trx, [id]))?.task_count;
    });
    expect(answer).toBe(6);
    expect(await count(id)).toBe(6);
  });

  it('rolls back everything the work wrote when it throws, and the throw goes on', async () => {
    const id = await insertAccount(db, 1);
    const failure = new Error('changed my mind');
    await expect(
      transaction(db, async (trx) => {
        await setCount.run(trx, [id, 7]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await count(id)).toBe(1);
  });

  it('a statement that fails inside rolls back the statements before it', async () => {
    const id = await insertAccount(db, 2);
    await expect(
      transaction(db, async (trx) => {
        await setCount.run(trx, [id, 9]);
        await insertWithId.run(trx, [id, `again-${id}@example.com`]);
      }),
    ).rejects.toThrow(/unique|constraint|duplicate/i);
    expect(await count(id)).toBe(2);
    // The connection went back to the pool out of the transaction: the next one commits as usual.
    await transaction(db, (trx) => setCount.run(trx, [id, 3]));
    expect(await count(id)).toBe(3);
  });

  it('a statement the work did not wait for, failing, fails the commit rather than vanish', async () => {
    const id = await insertAccount(db, 0);
    let statementFailure: unknown;
    const committing = transaction(db, async (trx) => {
      await setCount.run(trx, [id, 3]);
      insertWithId.run(trx, [id, `again-${id}@example.com`]).catch((error: unknown) => {
        statementFailure = error;
      });
    });
    if (isPostgres(db)) {
      await expect(committing).rejects.toThrow(/duplicate key/);
      expect(await count(id)).toBe(0);
    } else {
      // better-sqlite3 runs a statement at once: it failed alone, before the COMMIT, and the rest commits.
      await committing;
      expect(await count(id)).toBe(3);
    }
    expect(statementFailure).toBeInstanceOf(Error);
  });

  it('runs an after-commit hook once the commit is done, with the write visible outside, and never after a rollback', async () => {
    const id = await insertAccount(db, 0);
    const seen: { inTransaction: boolean }[] = [];
    let connection: unknown;
    await transaction(db, async (trx) => {
      connection = trx.connection;
      await setCount.run(trx, [id, 4]);
      trx.afterCommit(() => seen.push({ inTransaction: inTransactionNow(connection) }));
      afterCommit(trx, () => seen.push({ inTransaction: inTransactionNow(connection) }));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([{ inTransaction: false }, { inTransaction: false }]);
    expect(await count(id)).toBe(4);
    await expect(
      transaction(db, async (trx) => {
        trx.afterCommit(() => seen.push({ inTransaction: true }));
        await setCount.run(trx, [id, 8]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(2);
  });

  it('a knex statement sent while a transaction is open is not part of it: kept when the transaction rolls back', async () => {
    const [mine, theirs] = [await insertAccount(db, 0), await insertAccount(db, 0)];
    let knexWrite: Promise<unknown> | undefined;
    const rolledBack = transaction(db, async (trx) => {
      await addOne.run(trx, [mine]);
      knexWrite = asAnotherRequest(() => db('accounts').where('id', theirs).update({ task_count: 7 }).then((changed) => changed));
      for (let i = 0; i < 5; i++) await addOne.run(trx, [mine]);
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    await knexWrite;
    expect([await count(mine), await count(theirs)]).toEqual([0, 7]);
  });

  it('after-commit on a knex transaction waits for its commit, and never follows its rollback', async () => {
    const id = await insertAccount(db, 0);
    const calls: string[] = [];
    await knexTransaction(db, async (trx) => {
      await setCount.run(trx, [id, 1]);
      afterCommit(trx, () => calls.push('committed'));
      expect(calls).toEqual([]);
    });
    await expect(
      knexTransaction(db, async (trx) => {
        afterCommit(trx, () => calls.push('rolled back'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['committed']);
    // A knex transaction begun elsewhere has no commit to wait for: refused rather than run too early.
    await expect(db.transaction(async (trx) => afterCommit(trx, () => calls.push('early')))).rejects.toThrow(/knexTransaction/);
    expect(calls).toEqual(['committed']);
  });

  it('refuses statements and hooks once the transaction has ended', async () => {
    const id = await insertAccount(db, 0);
    let ended: Transaction | undefined;
    await transaction(db, async (trx) => {
      ended = trx;
    });
    await expect(setCount.run(ended!, [id, 1])).rejects.toThrow(/has ended/);
    expect(() => ended!.afterCommit(() => undefined)).toThrow(/has ended/);
    expect(await count(id)).toBe(0);
  });

  it('nested: a throw inside undoes the nested work only, and its hooks go with it', async () => {
    const id = await insertAccount(db, 0);
    const hooks: string[] = [];
    await transaction(db, async (trx) => {
      await setCount.run(trx, [id, 10]);
      await expect(
        transaction(trx, async (nested) => {
          nested.afterCommit(() => hooks.push('undone'));
          await addOne.run(nested, [id]);
          throw new Error('not this part');
        }),
      ).rejects.toThrow('not this part');
      await transaction(trx, async (nested) => {
        nested.afterCommit(() => hooks.push('kept'));
        await addOne.run(nested, [id]);
        // The outer handle waits while the nested transaction runs: its statements would land in the savepoint.
        await expect(addOne.run(trx, [id])).rejects.toThrow(/nested/);
      });
      expect(hooks).toEqual([]);
      await addOne.run(trx, [id]);
    });
    expect(hooks).toEqual(['kept']);
    expect(await count(id)).toBe(12);
  });

  it('nested work that commits is still undone by the outer rollback', async () => {
    const id = await insertAccount(db, 0);
    await expect(
      transaction(db, async (trx) => {
        await transaction(trx, (nested) => setCount.run(nested, [id, 5]));
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await count(id)).toBe(0);
  });

  it('inside a transaction, a statement or a transaction on the database itself is refused at once, and the transaction rolls back', async () => {
    const id = await insertAccount(db, 0);
    const started = Date.now();
    const refused = /inside one of its transactions/;
    for (const misuse of [
      () => countOf.first(db, [id]).then(() => undefined),
      // A knex statement: on SQLite refused when it asks for the one connection the transaction holds.
      () => db('accounts').where('id', id).update({ task_count: 9 }).then(() => undefined),
      () => db.raw('select 1').then(() => undefined),
      () => transaction(db, (inner) => addOne.run(inner, [id])),
      () => knexTransaction(db, (inner) => inner('accounts').where('id', id).update({ task_count: 9 })),
      ...(isPostgres(db) ? [] : [() => transactionNow(db, (inner) => addOne.now.run(inner, [id])), () => readNow(db, (inner) => countOf.now.first(inner, [id])?.task_count)]),
    ]) {
      await expect(
        transaction(db, async (trx) => {
          await addOne.run(trx, [id]);
          await misuse();
        }),
      ).rejects.toThrow(refused);
      await expect(knexTransaction(db, () => misuse())).rejects.toThrow(refused);
    }
    expect(await count(id)).toBe(0);
    // At once: not after a wait for a connection (knex's acquire timeout is 10 s and more).
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses a knex transaction, whose end knex decides', async () => {
    await expect(db.transaction((trx) => transaction(trx, async () => 1))).rejects.toThrow(/not a knex transaction/);
  });

  it.runIf(engine === 'sqlite')('on SQLite, transactions take turns on the one connection: a read and a write across awaits lose no update', async () => {
    const id = await insertAccount(db, 0);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        transaction(db, async (trx) => {
          const read = (await countOf.first(trx, [id]))!.task_count;
          await new Promise((resolve) => setImmediate(resolve));
          await setCount.run(trx, [id, read + 1]);
        }),
      ),
    );
    expect(await count(id)).toBe(20);
  });

  it.runIf(engine === 'postgres')('on PostgreSQL, a connection lost mid-transaction fails it, and the next one runs on another connection', async () => {
    const id = await insertAccount(db, 0);
    let lostPid = 0;
    await expect(
      transaction(db, async (trx) => {
        lostPid = (await backendPid.first(trx, []))!.pid;
        await setCount.run(trx, [id, 6]);
        await asAnotherRequest(() => db.raw('select pg_terminate_backend(?)', [lostPid]).then(() => undefined));
        await addOne.run(trx, [id]);
      }),
    ).rejects.toThrow();
    const next = await transaction(db, async (trx) => {
      await addOne.run(trx, [id]);
      return (await backendPid.first(trx, []))!.pid;
    });
    expect(next).not.toBe(lostPid);
    expect(await count(id)).toBe(1);
  });

  it('gives its connection back after a commit and after a rollback: more transactions than the pool has connections all run', async () => {
    const id = await insertAccount(db, 0);
    for (let i = 0; i < 12; i++) {
      await transaction(db, (trx) => addOne.run(trx, [id]));
      await transaction(db, async (trx) => {
        await addOne.run(trx, [id]);
        throw new Error('roll back');
      }).catch(() => undefined);
    }
    expect(await count(id)).toBe(12);
    expect(poolCounts(db)).toMatchObject({ used: 0, pending: 0 });
  });

  it.runIf(engine === 'sqlite')('on SQLite, a knex transaction and ours take turns on the one connection: neither writes over the other', async () => {
    const id = await insertAccount(db, 0);
    const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
    const ours = transaction(db, async (trx) => {
      const read = (await countOf.first(trx, [id]))!.task_count;
      await pause();
      await setCount.run(trx, [id, read + 1]);
    });
    const knexs = knexTransaction(db, async (trx) => {
      const row = (await trx('accounts').select('task_count').where('id', id).first()) as { task_count: number };
      await pause();
      await trx('accounts').where('id', id).update({ task_count: row.task_count + 1 });
    });
    await Promise.all([ours, knexs, transaction(db, (trx) => addOne.run(trx, [id]))]);
    expect(await count(id)).toBe(3);
  });

  it.runIf(engine === 'sqlite')('transactionNow on SQLite: runs the work as a transaction of its own, commits, then runs the after-commit hooks; a throw undoes it', async () => {
    const id = await insertAccount(db, 0);
    const events: string[] = [];
    const done = await transactionNow(db, (trx) => {
      setCount.now.run(trx, [id, 3]);
      const { connection } = trx;
      trx.afterCommit(() => events.push(`committed, in a transaction: ${String(inTransactionNow(connection))}`));
      events.push('worked');
      return countOf.now.first(trx, [id])?.task_count;
    });
    expect(done).toBe(3);
    expect(events).toEqual(['worked', 'committed, in a transaction: false']);
    expect(await count(id)).toBe(3);
    // A throw rolls back everything the work wrote, runs no hook, and goes on.
    await expect(
      transactionNow(db, (trx) => {
        setCount.now.run(trx, [id, 7]);
        trx.afterCommit(() => events.push('rolled back'));
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(events).toHaveLength(2);
    expect(await count(id)).toBe(3);
    // The connection is back as it was: the next transaction runs.
    expect(await transactionNow(db, (trx) => setCount.now.run(trx, [id, 1]))).toBe(1);
  });

  it.runIf(engine === 'sqlite')('transactionNow on SQLite: while another transaction is open on the one connection, waits for it to end', async () => {
    const id = await insertAccount(db, 0);
    const order: string[] = [];
    let waiting: Promise<unknown> | undefined;
    await transaction(db, async (trx) => {
      await setCount.run(trx, [id, 2]);
      waiting = asAnotherRequest(() => transactionNow(db, (now) => order.push(`ran after ${String(countOf.now.first(now, [id])?.task_count)}`)));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await addOne.run(trx, [id]);
      order.push('outer committing');
    });
    await waiting;
    expect(order).toEqual(['outer committing', 'ran after 3']);
  });

  it.runIf(engine === 'sqlite')('readNow on SQLite: waits for a transaction open on the one connection, then reads what it committed', async () => {
    const id = await insertAccount(db, 0);
    const order: string[] = [];
    let waiting: Promise<unknown> | undefined;
    await transaction(db, async (trx) => {
      await setCount.run(trx, [id, 2]);
      waiting = asAnotherRequest(() => readNow(db, (now) => order.push(`read ${String(countOf.now.first(now, [id])?.task_count)}`)));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await addOne.run(trx, [id]);
      order.push('outer committing');
    });
    await waiting;
    expect(order).toEqual(['outer committing', 'read 3']);
  });

  it.runIf(engine === 'sqlite')('readNow on SQLite only reads: a write or an after-commit hook inside it is refused, and nothing is written', async () => {
    const id = await insertAccount(db, 4);
    const refused = /only reads/;
    await expect(readNow(db, (trx) => setCount.now.run(trx, [id, 9]))).rejects.toThrow(refused);
    await expect(readNow(db, (trx) => trx.afterCommit(() => undefined))).rejects.toThrow(refused);
    expect(await count(id)).toBe(4);
    expect(await readNow(db, (trx) => countOf.now.first(trx, [id])?.task_count)).toBe(4);
  });

  it.runIf(engine === 'sqlite')('transactionNow inside a transaction of ours: a savepoint, undone alone by its throw, its hooks after the outer commit', async () => {
    const id = await insertAccount(db, 0);
    const hooks: string[] = [];
    await transaction(db, async (trx) => {
      await setCount.run(trx, [id, 10]);
      await expect(
        transactionNow(trx, (nested) => {
          addOne.now.run(nested, [id]);
          nested.afterCommit(() => hooks.push('undone'));
          throw new Error('not this part');
        }),
      ).rejects.toThrow('not this part');
      await transactionNow(trx, (nested) => {
        addOne.now.run(nested, [id]);
        nested.afterCommit(() => hooks.push('kept'));
      });
      expect(hooks).toEqual([]);
    });
    expect(hooks).toEqual(['kept']);
    expect(await count(id)).toBe(11);
  });
});

describe('transaction on an SQLite file shared with another process', () => {
  let directory: string;
  let db: Db;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'transaction-test-'));
    db = createDb({ client: 'sqlite', filename: join(directory, 'shared.sqlite') });
  });
  afterAll(async () => {
    await closeDb(db);
    rmSync(directory, { recursive: true, force: true });
  });

  it('takes the write lock at BEGIN: another writer of the file waits from the start, not from the first write', async () => {
    expect(isPostgres(db)).toBe(false);
    const other = new Database(join(directory, 'shared.sqlite'));
    other.pragma('busy_timeout = 0');
    try {
      await transactionNow(db, () => {
        expect(() => other.prepare('BEGIN IMMEDIATE').run()).toThrow(/locked|busy/i);
      });
      other.prepare('BEGIN IMMEDIATE').run();
      other.prepare('ROLLBACK').run();
    } finally {
      other.close();
    }
  });

  it('readNow reads one state of the file and takes no write lock: another writer commits meanwhile, seen only after it', async () => {
    await db.raw('create table if not exists counted (n integer)');
    await db.raw('insert into counted (n) values (1)');
    const countRows = compiledQuery<[], { rows: number }>((knex) => knex.raw('select count(*) as rows from counted'));
    const other = new Database(join(directory, 'shared.sqlite'));
    other.pragma('busy_timeout = 0');
    try {
      const seen = await readNow(db, (trx) => {
        const before = countRows.now.first(trx, [])!.rows;
        other.prepare('insert into counted (n) values (2)').run();
        return [before, countRows.now.first(trx, [])!.rows];
      });
      expect(seen).toEqual([1, 1]);
      expect((await countRows.first(db, []))!.rows).toBe(2);
    } finally {
      other.close();
    }
  });
});
