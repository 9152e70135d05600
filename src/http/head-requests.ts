import type { RequestHandler } from 'express';

/**
 * HEAD is GET without the body (RFC 9110 §9.3.2), which every server must support; the document
 * lists only GET. Node already leaves the body out of the answer to a HEAD request, so from here on
 * it is checked and served as the GET it stands for (the rate limiter has counted it already).
 */
export const headAsGet: RequestHandler = (req, _res, next) => {
  if (req.method === 'HEAD') req.method = 'GET';
  next();
};
