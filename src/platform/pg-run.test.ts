import { describe, expect, it } from 'vitest';
import { rowMaker } from './pg-run.js';

describe('a PostgreSQL row made from its values', () => {
  it('holds every column by name, in order, NULL as null', () => {
    const row = rowMaker(['id', 'version', 'due_at']);
    expect(row(['t1', 3, null])).toStrictEqual({ id: 't1', version: 3, due_at: null });
    expect(Object.keys(row(['t2', 1, 5]))).toEqual(['id', 'version', 'due_at']);
  });

  it('takes any column name as a name only: quotes, backslashes, a line break, code', () => {
    const names = ['a"b', 'c\\d', 'e\nf', '}; throw new Error("x"); ({', ''];
    expect(rowMaker(names)(['1', '2', '3', '4', '5'])).toStrictEqual(Object.fromEntries(names.map((name, i) => [name, String(i + 1)])));
  });

  it('makes a column named __proto__ a column, not the row prototype', () => {
    const row = rowMaker(['__proto__'])(['{}']);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('{}');
  });

  it('keeps the last value of a column named twice', () => {
    expect(rowMaker(['n', 'n'])(['1', 2])).toStrictEqual({ n: 2 });
  });
});
