import type { ExpectedVersions } from './tasks.repository.js';

// A task's ETag is its version, as a strong entity tag (docs/change-feed.md; RFC 9110 §8.8.3, §13.1).

export const etagOf = (version: number): string => `"${version}"`;

/**
 * The versions an If-Match allows: undefined (any) when it is absent or `*`; else the versions of
 * its strong tags. A weak tag never matches (RFC 9110 §13.1.1: strong comparison), nor does a
 * malformed one, so a list of only those allows none.
 */
export function ifMatchVersions(header: string | undefined): ExpectedVersions {
  if (header === undefined || header.trim() === '*') return undefined;
  return entityTags(header)
    .filter((tag) => !tag.weak)
    .map((tag) => tag.version)
    .filter((version): version is number => version !== undefined);
}

/** True when If-None-Match names this version (weak comparison, RFC 9110 §13.1.2) or is `*`. */
export function ifNoneMatchHits(header: string | undefined, version: number): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return entityTags(header).some((tag) => tag.version === version);
}

function entityTags(header: string): { weak: boolean; version: number | undefined }[] {
  return header.split(',').map((raw) => {
    const tag = raw.trim();
    const weak = tag.startsWith('W/');
    const match = /^"([1-9][0-9]{0,14})"$/.exec(weak ? tag.slice(2) : tag);
    return { weak, version: match ? Number(match[1]) : undefined };
  });
}
