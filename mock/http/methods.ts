// Which methods a path has, from the contracts: a method a known path does not have is a 405 with
// `Allow` (RFC 9110, 15.5.6), not a 404 "No route" — the path exists, the method does not — and
// `OPTIONS` answers that path's own methods. Express would otherwise answer OPTIONS with the methods
// of every route the URL matches, so `/api/v2/courses/clone` would also advertise the GET of
// `/courses/{courseId}`; here the most specific path of the contract decides, as in contract.ts.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Node } from '../../lib/spec-walk.ts';
import type { Specs } from '../specs.ts';
import { APIS, sendApiError } from './apis.ts';
import { ROUTED_METHODS } from './contract/operations.ts';
import { pathPattern, specificity } from './contract/route-table.ts';

type Spec = Node;

interface KnownPath {
  /** Matches the request path below the API's prefix, as Express does: any case, a trailing slash allowed. */
  pattern: RegExp;
  /** Literal segments before templated ones, so `/courses/clone` wins over `/courses/{courseId}`. */
  specificity: string;
  allow: string[];
}

function knownPaths(spec: Spec): KnownPath[] {
  return Object.entries(spec.paths as Spec)
    .map(([path, item]) => {
      const methods = ROUTED_METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
      // Express answers HEAD with the GET handler; every path answers OPTIONS here.
      const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
      return { pattern: pathPattern(path).pattern, specificity: specificity(path), allow };
    })
    .sort((a, b) => a.specificity.localeCompare(b.specificity));
}

/**
 * Answers OPTIONS and wrong methods of the contracts' paths, each API's under its prefix (./apis.ts);
 * everything else passes on to the routers.
 */
export function methodsOfPaths(specs: Specs): RequestHandler {
  const apis = APIS.map(({ name, prefix }) => ({ name, prefix, paths: knownPaths(specs[name]) }));
  return (req: Request, res: Response, next: NextFunction) => {
    const api = apis.find((a) => req.path === a.prefix || req.path.startsWith(`${a.prefix}/`));
    if (!api) return next();
    const rest = req.path.slice(api.prefix.length) || '/';
    const known = api.paths.find((p) => p.pattern.test(rest));
    if (!known) return next();
    if (req.method === 'OPTIONS') {
      res.set('Allow', known.allow.join(', ')).status(204).end();
      return;
    }
    if (known.allow.includes(req.method)) return next();
    res.set('Allow', known.allow.join(', '));
    const message = `${req.method} is not allowed on ${req.path}; it allows ${known.allow.join(', ')}`;
    sendApiError(api.name, res, 405, 'METHOD_NOT_ALLOWED', message);
  };
}
