/**
 * `text` as V8 keeps text it decodes from UTF-8: one byte a character where every character fits in one.
 * Strings taken out of the OpenAPI document's YAML text are two bytes a character (the YAML has
 * characters that do not fit, a dash in a description), object keys included; one of them in a
 * response's headers or an access line made the whole text two-byte, and Node wrote it out on its slow
 * path, character by character (callgrind, docs/benchmarks.md#pipeline).
 */
export function oneByte(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
