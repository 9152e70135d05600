/**
 * A constructor of records with no inherited names, as `Object.create(null)` makes them (`__proto__` and
 * `constructor` are names like any other), kept in V8's fast mode: a null-prototype literal is a
 * dictionary from the start, and a name added to one cost as much as a whole query's parse
 * (src/http/query-parser.ts). V8 keeps an object made by a constructor in fast mode; its prototype,
 * empty and without a prototype of its own, lends it nothing.
 */
export function bareRecords<V>(): new () => Record<string, V> {
  const BareRecord = function BareRecord() {} as unknown as new () => Record<string, V>;
  BareRecord.prototype = Object.create(null) as Record<string, V>;
  return BareRecord;
}
