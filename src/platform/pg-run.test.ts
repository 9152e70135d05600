import { describe, expect, it } from 'vitest';
import { rowMaker } from './pg-run.js';

const text = (value: string) => value;
const number = (value: string) => Number(value);

describe('a PostgreSQL row made from its fields', () => {
  it('holds every column by name, each parsed by its own parser, NULL as null', () => {
    const row = rowMaker([
      { name: 'id', parser: text },
      { name: 'version', parser: number },
      { name: 'due_at', parser: number },
    ]);
    expect(row(['t1', '3', null])).toStrictEqual({ id: 't1', version: 3, due_at: null });
    expect(Object.keys(row(['t2', '1', '5']))).toEqual(['id', 'version', 'due_at']);
  });

  it('takes any column name as a name only: quotes, backslashes, a line break, code', () => {
    const names = ['a"b', 'c\\d', 'e\nf', '}; throw new Error("x"); ({', ''];
    const row = rowMaker(names.map((name) => ({ name, parser: text })));
    expect(row(['1', '2', '3', '4', '5'])).toStrictEqual(Object.fromEntries(names.map((name, i) => [name, String(i + 1)])));
  });

  it('makes a column named __proto__ a column, not the row prototype', () => {
    const row = rowMaker([{ name: '__proto__', parser: text }])(['{}']);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('{}');
  });

  it('keeps the last value of a column named twice', () => {
    expect(rowMaker([{ name: 'n', parser: text }, { name: 'n', parser: number }])(['1', '2'])).toStrictEqual({ n: 2 });
  });
});
