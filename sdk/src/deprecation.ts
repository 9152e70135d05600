import type { Middleware } from 'openapi-fetch';

/** What has been warned of in this process: each deprecated operation once. */
const warned = new Set<string>();

/**
 * Warns once per process, with `console.warn`, when a response carries `Deprecation` (RFC 9745): the
 * call used an operation or parameter that goes away at the `Sunset` date (RFC 8594); the `Link` with
 * rel="deprecation" says how to migrate (docs/versioning.md of the service).
 */
export const deprecationWarnings: Middleware = {
  onResponse({ request, response, schemaPath }) {
    if (!response.headers.has('Deprecation')) return undefined;
    const target = /<([^>]*)>\s*;\s*rel="?deprecation"?/i.exec(response.headers.get('Link') ?? '')?.[1];
    // The server may send it relative to the request (RFC 8288).
    const link = target === undefined ? undefined : new URL(target, response.url || request.url).href;
    const operationId = link ? /#operation\/([\w-]+)/.exec(link)?.[1] : undefined;
    const operation = `${request.method} ${schemaPath}`;
    const sunset = response.headers.get('Sunset');
    const key = `${operation} ${sunset ?? ''}`;
    if (warned.has(key)) return undefined;
    warned.add(key);
    // eslint-disable-next-line no-console -- a deprecation reaches the app's developer as a console warning.
    console.warn(
      `Task Service: ${operationId ? `${operationId} (${operation})` : operation} used something deprecated` +
        `${sunset ? `; it stops working after ${sunset}` : ''}${link ? `. How to migrate: ${link}` : ''}`,
    );
    return undefined;
  },
};
