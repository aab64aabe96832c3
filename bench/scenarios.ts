// What `npm run bench` measures (bench/run.ts): each scenario a request, the server it runs on, the
// ratio to bare Express its median must reach, and what else it is compared with.
import { DEMO_SITE_API_KEY, demoMcpKey } from '../mock/seed/demo.ts';

export const KEY = { 'x-api-key': DEMO_SITE_API_KEY };
export const MCP = { 'x-mcp-key': demoMcpKey('write') };

export type ServerName = 'demo' | 'journal' | 'fsync' | 'scale' | 'million';

export interface Scenario {
  name: string;
  server: ServerName;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** A JSON body template whose `{n}` is unique per request. */
  uniqueBody?: string;
  /** Query strings the requests cycle through, each answered once (the answer cache misses). */
  queries?: string[];
  /** The ratio to bare Express the median must reach; none for a scenario that is measured only. */
  target?: number;
  /** The same operation on Prism (path relative to the spec's server), for reads it can serve. */
  prism?: { api: 'v1' | 'v2'; path: string };
  /**
   * Also compared, at 10 connections, with the bare route on the mock's own HTTP server, which builds
   * requests with Express's prototypes (lib/express-server.ts): how the mock stands against an
   * Express route that skips the same cost. No target; the targets are on stock Express.
   */
  sameServer?: boolean;
  /** A p99 bound in ms at 50 connections (the million-user targets). */
  p99?: number;
}

const newUser = JSON.stringify({
  name: 'Bench User',
  email: 'bench{n}@example.test',
  password: 'bench-password',
  roleAlias: 'learner',
});
/**
 * E-mail fragments ("weber1234") the answer cache has not kept: every search scans. The load worker
 * goes on through the list from run to run, so a query comes again only after 20 000 others, long
 * after the cache forgot it (it keeps an answer from a URL's second ask and remembers at most 4 000
 * URLs asked once, mock/http/answer-cache.ts).
 */
export const freshQueries = (users: number) =>
  Array.from(
    { length: 20_000 },
    (_, i) => `query=${['weber', 'rossi', 'tanaka', 'costa'][i % 4]}${(i * 7919) % users}&limit=20`,
  );

/** The scenarios of a run; `full` adds the million-user ones (BENCH_FULL=1). */
export const scenariosOf = (full: boolean): Scenario[] => [
  {
    name: 'v1 course detail',
    server: 'demo',
    method: 'GET',
    path: '/openapi/v1/courses/1',
    headers: KEY,
    target: 0.85,
    prism: { api: 'v1', path: '/courses/1' },
    sameServer: true,
  },
  {
    name: 'v1 user assignments',
    server: 'demo',
    method: 'GET',
    path: '/openapi/v1/users/lena/assignments',
    headers: KEY,
    target: 0.85,
    prism: { api: 'v1', path: '/users/lena/assignments' },
  },
  {
    name: 'v1 /statistics, 100 000 users',
    server: 'scale',
    method: 'GET',
    path: '/openapi/v1/statistics',
    headers: KEY,
    target: 0.85,
    prism: { api: 'v1', path: '/statistics' },
  },
  {
    name: 'v2 capabilities (key check)',
    server: 'demo',
    method: 'GET',
    path: '/api/v2/mcp/capabilities',
    headers: MCP,
    target: 0.8,
    prism: { api: 'v2', path: '/mcp/capabilities' },
  },
  {
    name: 'v2 user search (full pipeline), 100 000 users',
    server: 'scale',
    method: 'GET',
    path: '/api/v2/users?query=greta&limit=20',
    headers: MCP,
    target: 0.8,
    prism: { api: 'v2', path: '/users?query=greta&limit=20' },
    sameServer: true,
  },
  {
    name: 'v1 create user (write)',
    server: 'demo',
    method: 'POST',
    path: '/openapi/v1/users',
    headers: KEY,
    uniqueBody: newUser,
    target: 0.7,
    sameServer: true,
  },
  {
    name: 'v1 create user (write, --state-file)',
    server: 'journal',
    method: 'POST',
    path: '/openapi/v1/users',
    headers: KEY,
    uniqueBody: newUser,
    target: 0.7,
  },
  {
    // What a flush to disk before each answer costs (group commit, docs/mock.md: Durable state),
    // beside the write without it; no target, since it measures the disk as much as the mock.
    name: 'v1 create user (write, --state-file, --fsync)',
    server: 'fsync',
    method: 'POST',
    path: '/openapi/v1/users',
    headers: KEY,
    uniqueBody: newUser,
  },
  ...(full
    ? ([
        {
          name: 'v1 course detail, 1 000 000 users',
          server: 'million',
          method: 'GET',
          path: '/openapi/v1/courses/1',
          headers: KEY,
          target: 0.85,
          p99: 30,
        },
        {
          name: 'v1 user assignments, 1 000 000 users',
          server: 'million',
          method: 'GET',
          path: '/openapi/v1/users/u500000/assignments',
          headers: KEY,
          target: 0.85,
          p99: 30,
        },
        {
          name: 'v1 /statistics, 1 000 000 users',
          server: 'million',
          method: 'GET',
          path: '/openapi/v1/statistics',
          headers: KEY,
          target: 0.85,
          p99: 30,
        },
        {
          name: 'v2 user search, 1 000 000 users, every query new',
          server: 'million',
          method: 'GET',
          path: '/api/v2/users?query=greta&limit=20',
          headers: MCP,
          queries: freshQueries(1_000_000),
          target: 0.8,
          p99: 50,
        },
      ] satisfies Scenario[])
    : []),
];
