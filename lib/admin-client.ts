// A client of the mock's admin API typed from its contract (generated/admin.ts, `npm run generate`):
// paths, parameters, bodies and answers are checked by the compiler, so a call that drifts from
// openapi/admin is a type error rather than a 400 at run time. Used by the console, by tests that
// set the mock up, and by integrators' own test suites.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../generated/admin.ts';

export type AdminPaths = paths;
export type AdminClient = Client<paths>;

/**
 * `origin` is the mock's address (`http://127.0.0.1:4010`); the admin API lives under `/__admin`.
 * The token is the one the mock printed at start (`--admin-token`).
 */
export function createAdminClient(origin: string, token: string, fetchImpl?: typeof fetch): AdminClient {
  return createClient<paths>({
    baseUrl: `${origin.replace(/\/$/, '')}/__admin`,
    headers: { authorization: `Bearer ${token}` },
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
}
