// What the docs site and the console have in common as routers: they only serve files, and their
// pages use relative links, which need the directory's trailing slash.
import type { Request, Response } from 'express';

/** Answers a write with 405 or a bare directory URL with its slash; true when the request is answered. */
export function answeredAsReadOnly(req: Request, res: Response, what: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.status(405).set('allow', 'GET, HEAD').type('text/plain').send(`${what} read-only: GET or HEAD.\n`);
    return true;
  }
  if (req.path === '/' && !req.originalUrl.split('?')[0]?.endsWith('/')) {
    res.redirect(301, `${req.baseUrl}/`);
    return true;
  }
  return false;
}
