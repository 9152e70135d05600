import type { Json } from './breaking-fixtures.js';

/**
 * What a client receives and may rely on: a response body or a webhook payload. Judged here rather
 * than by the diff library, which reads a schema without knowing that a client receives it, does not
 * look into webhooks or into oneOf/anyOf/allOf, and cannot tell an open enum (`x-open-enum: true`,
 * docs/versioning.md) from a closed one.
 */

export const typesOf = (schema: Json | undefined): string[] => {
  const type = schema?.type;
  return type === undefined ? [] : Array.isArray(type) ? type : [type];
};

/** One schema for an `allOf`: its parts' properties and required names together (a dereferenced schema). */
export function flattened(schema: Json | undefined): Json | undefined {
  if (!schema || !Array.isArray(schema.allOf)) return schema;
  const { allOf, ...own } = schema;
  const merged: Json = { ...own, properties: { ...(own.properties ?? {}) }, required: [...(own.required ?? [])] };
  for (const part of (allOf as Json[]).map(flattened)) {
    if (!part) continue;
    merged.type ??= part.type;
    Object.assign(merged.properties, part.properties ?? {});
    merged.required.push(...((part.required ?? []) as string[]));
    if (part.items && !merged.items) merged.items = part.items;
    if (part.enum && !merged.enum) merged.enum = part.enum;
    if (part['x-open-enum']) merged['x-open-enum'] = true;
  }
  return merged;
}

const quoted = (values: readonly unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');
const named = (where: string) => (where ? `property \`${where}\`` : 'the body');

/**
 * What a received schema no longer keeps of its promise, pushed to `out`: a property removed or no
 * longer always present, a type, an enum value or a constant it never had (an open enum may grow), an
 * alternative of oneOf/anyOf it never had; into properties, array items, oneOf/anyOf branches (by
 * position) and allOf (merged).
 */
export function receivedChanges(beforeSchema: Json | undefined, afterSchema: Json | undefined, where: string, out: string[]): void {
  const before = flattened(beforeSchema);
  const after = flattened(afterSchema);
  if (!before || !after) return;
  const was = typesOf(before);
  const added = typesOf(after).filter((type) => !was.includes(type) && !(type === 'integer' && was.includes('number')));
  if (was.length > 0 && added.length > 0) out.push(`${named(where)} may now be ${added.join(' or ')}`);

  if (Array.isArray(before.enum)) {
    if (!Array.isArray(after.enum) && after.const === undefined) out.push(`${named(where)} may now be any value (its enum was removed)`);
    else if (Array.isArray(after.enum) && after['x-open-enum'] !== true) {
      const newValues = (after.enum as unknown[]).filter((value) => !(before.enum as unknown[]).includes(value));
      if (newValues.length > 0) out.push(`${named(where)} may now be ${quoted(newValues)} (enum value added)`);
    }
  }
  if (before.const !== undefined && JSON.stringify(after.const) !== JSON.stringify(before.const)) {
    out.push(`${named(where)} may now be ${after.const === undefined ? 'another value' : quoted([after.const])} (was always ${quoted([before.const])})`);
  }

  const properties = (before.properties ?? {}) as Record<string, Json>;
  const now = (after.properties ?? {}) as Record<string, Json>;
  const nowRequired = new Set((after.required ?? []) as string[]);
  for (const [name, schema] of Object.entries(properties)) {
    const path = where ? `${where}.${name}` : name;
    if (!(name in now)) out.push(`${named(path)} removed`);
    else {
      if (((before.required ?? []) as string[]).includes(name) && !nowRequired.has(name)) out.push(`${named(path)} no longer always present (no longer required)`);
      receivedChanges(schema, now[name], path, out);
    }
  }
  if (before.items && after.items) receivedChanges(before.items, after.items, `${where}[]`, out);

  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = (before[keyword] ?? []) as Json[];
    const nowBranches = (after[keyword] ?? []) as Json[];
    if (branches.length === 0 || nowBranches.length === 0) continue;
    branches.forEach((branch, index) => receivedChanges(branch, nowBranches[index], `${where}${where ? '.' : ''}${keyword}[${index}]`, out));
    for (let index = branches.length; index < nowBranches.length; index++) out.push(`${named(where)} may now be of a new shape (${keyword} alternative ${index + 1} added)`);
  }
}

/**
 * A request property a client may have sent that a closed object (`additionalProperties: false`) no
 * longer takes: the same request is now refused with 400. Into properties, items and oneOf/anyOf/allOf.
 */
export function requestRemovals(beforeSchema: Json | undefined, afterSchema: Json | undefined, where: string, out: string[]): void {
  const before = flattened(beforeSchema);
  const after = flattened(afterSchema);
  if (!before || !after) return;
  const now = (after.properties ?? {}) as Record<string, Json>;
  for (const [name, schema] of Object.entries((before.properties ?? {}) as Record<string, Json>)) {
    const path = where ? `${where}.${name}` : name;
    if (name in now) requestRemovals(schema, now[name], path, out);
    else if (after.additionalProperties === false) out.push(`${named(path)} removed: a request that sends it is now refused (additionalProperties is false)`);
  }
  if (before.items && after.items) requestRemovals(before.items, after.items, `${where}[]`, out);
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    ((before[keyword] ?? []) as Json[]).forEach((branch, index) => requestRemovals(branch, (after[keyword] as Json[] | undefined)?.[index], `${where}${where ? '.' : ''}${keyword}[${index}]`, out));
  }
}
