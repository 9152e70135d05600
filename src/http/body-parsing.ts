import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type RequestHandler } from 'express';
import { errors } from '../platform/errors.js';
import type { OperationRoute } from './operation-table.js';

const JSON_TYPES = ['application/json', 'application/*+json'];
/** JSON's escape of U+0000 (a raw NUL byte is not valid JSON at all) and its form encoding. */
const NUL_MARKERS = [Buffer.from('\\u0000'), Buffer.from('%00'), Buffer.from([0])];

/**
 * The read-the-body step of an operation that takes one: the parsers of the content types it
 * declares, held to its limit (a large Content-Length fails at once). Operations without a body
 * read none. The count step runs before this (it needs only the headers), so a refused request is
 * never parsed; only the refresh budget keys on the body, so that route reads it first.
 */
export function readBody(route: Pick<OperationRoute, 'bodyTypes' | 'bodyLimitBytes'>): RequestHandler | undefined {
  const parsers: RequestHandler[] = [];
  if (route.bodyTypes.includes('application/json')) {
    parsers.push(express.json({ limit: route.bodyLimitBytes, type: JSON_TYPES, verify: noteNulMarkers }));
  }
  if (route.bodyTypes.includes('application/x-www-form-urlencoded')) {
    parsers.push(express.urlencoded({ limit: route.bodyLimitBytes, extended: false, verify: noteNulMarkers }));
  }
  const [first, second] = parsers;
  if (!first) return undefined;
  const limit = route.bodyLimitBytes;
  return function readBody(req, res, next) {
    // The parser would read (and drop) a body over the limit before its 413; the header says enough.
    if (Number(req.headers['content-length']) > limit) return next(errors.payloadTooLarge(limit));
    inviteBody(req, res);
    if (!second) return first(req, res, next);
    first(req, res, (err?: unknown) => (err ? next(err) : second(req, res, next)));
  };
}

/**
 * A client that sent `Expect: 100-continue` waits for `100 Continue` before the body (the server
 * leaves it to this step: src/http/http-server.ts); only a body this step will read is invited.
 */
function inviteBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.headers.expect?.toLowerCase() === '100-continue' && !res.headersSent) res.writeContinue();
}

/**
 * The same step before the count, for the refresh budget: what fails to parse is handed to the count
 * step as a value (res.locals.bodyError), which fails the request once it is counted.
 */
export function readBodyBeforeCount(route: Pick<OperationRoute, 'bodyTypes' | 'bodyLimitBytes'>): RequestHandler | undefined {
  const read = readBody(route);
  if (!read) return undefined;
  return function readBodyBeforeCount(req, res, next) {
    read(req, res, (err?: unknown) => {
      if (err) res.locals.bodyError = err;
      next();
    });
  };
}

/** One pass over the raw bytes (memchr-fast); the parsed tree is walked only when this finds something. */
function noteNulMarkers(_req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
  if (NUL_MARKERS.some((marker) => raw.includes(marker))) (res as express.Response).locals.bodyMayHoldNul = true;
}
