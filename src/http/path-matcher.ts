/** Where a request's path led: the document path it matched and its parameters, decoded. */
export type PathMatch<Entry> =
  | { readonly entry: Entry; readonly params: Record<string, string> }
  /** The path matched a template, but a parameter is not valid percent-encoding (`/tasks/%ZZ`). */
  | { readonly entry: Entry; readonly malformed: { readonly name: string; readonly raw: string } };

/**
 * The document's paths, matched as Express 5 routes them (case-insensitive, one trailing slash
 * allowed, a parameter is one non-empty segment, decoded with decodeURIComponent), found in one step
 * instead of comparing the request with every route in turn: a path without parameters by a map
 * lookup, the templated ones by their compiled patterns. A concrete path wins over a template that
 * also matches it (`/tasks/changes` over `/tasks/{taskId}`), as OpenAPI says paths are matched.
 */
export function pathMatcher<Entry>(paths: ReadonlyMap<string, Entry>): (path: string) => PathMatch<Entry> | undefined {
  const concrete = new Map<string, { entry: Entry; pattern: RegExp }>();
  const templated: { entry: Entry; pattern: RegExp; names: string[] }[] = [];
  for (const [template, entry] of paths) {
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1]!);
    const pattern = patternOf(template);
    if (names.length === 0) concrete.set(template.toLowerCase(), { entry, pattern });
    else templated.push({ entry, pattern, names });
  }

  return function matchPath(path) {
    const key = (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase();
    const exact = concrete.get(key);
    // The pattern settles what lowercasing alone would let through (characters that lowercase to ASCII).
    if (exact !== undefined && exact.pattern.test(path)) return { entry: exact.entry, params: {} };
    for (const { entry, pattern, names } of templated) {
      const found = pattern.exec(path);
      if (found === null) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) {
        const raw = found[i + 1]!;
        const value = percentDecoded(raw);
        if (value === undefined) return { entry, malformed: { name: names[i]!, raw } };
        params[names[i]!] = value;
      }
      return { entry, params };
    }
    return undefined;
  };
}

function patternOf(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}

/** decodeURIComponent, undefined for text that is not valid percent-encoding. */
export function percentDecoded(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
