// In-process harness for HTTP tests of the mock: the real app on an ephemeral loopback port, over
// the demo seed, with a frozen clock and every answer checked against the contract
// (`validateResponses`: a departure turns into a 500, which fails the test that made the request).
// Two ways to call it: `h.api.*`, clients typed from the contracts (openapi-fetch over generated/*.ts),
// for requests the contract allows, whose answers the tests read as typed data; and `h.v1/v2/admin`,
// untyped, for requests made wrong on purpose (a missing or unknown field, a bad value or header) and
// for tests that look at a raw status or error body.
import createClient, { type Client } from 'openapi-fetch';
import type { paths as V1Paths } from '../../generated/v1.ts';
import type { paths as V2Paths } from '../../generated/v2.ts';
import { type AdminClient, createAdminClient } from '../../lib/admin-client.ts';
import { VirtualClock } from '../../mock/domain/clock.ts';
import { Platform } from '../../mock/domain/platform.ts';
import type { LoadDocs } from '../../mock/http/docs.ts';
import type { PipelineLimits } from '../../mock/http/v2/pipeline/index.ts';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../../mock/seed/demo.ts';
import { loadSeed } from '../../mock/seed/index.ts';
import { startServer } from '../../mock/server.ts';

export const ADMIN_TOKEN = 'test-admin-token';
export { DEMO_SITE_API_KEY };
/** The demo tenant's MCP keys (owner: ada, the administrator): read only, and read + write. */
export const READ_KEY = demoMcpKey('read');
export const WRITE_KEY = demoMcpKey('write');

export type V1Client = Client<V1Paths>;
export type V2Client = Client<V2Paths>;

/** Clients of the three APIs typed from their contracts: each call answers `{ data, error, response }`. */
export interface TypedClients {
  /** The v1 API with the demo site key (a request's own `headers` override it). */
  v1: V1Client;
  /** /api/v2 with the demo write key (`WRITE_KEY`). */
  v2: V2Client;
  /** /api/v2 with another MCP key, or with none when `key` is null. */
  v2As: (key: string | null) => V2Client;
  /** The admin API with the admin token (lib/admin-client.ts). */
  admin: AdminClient;
}

/**
 * The data of a typed call that succeeded, typed from the contract: narrows `data` for reading and
 * fails the test, naming the status and the error body, when the answer is not a 2xx with a body.
 */
export function ok<T extends { data?: unknown; error?: unknown; response: Response }>(
  result: T,
): NonNullable<T['data']> {
  const { data, error, response } = result;
  if (!response.ok || data === undefined || data === null) {
    throw new Error(
      `${response.url}: expected a 2xx with a body, got ${response.status} ${JSON.stringify(error)}`,
    );
  }
  return data as NonNullable<T['data']>;
}

/** `value` when it is there; fails the test, naming `what`, when it is undefined (narrows `T | undefined`). */
export function defined<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`expected ${what}, found none`);
  return value;
}

export interface Harness {
  platform: Platform;
  base: string;
  /** Typed clients (see `TypedClients`); the untyped helpers below send what the types would refuse. */
  api: TypedClients;
  /** A request to the v1 API with the demo site key (override headers to test auth). */
  v1: (
    path: string,
    init?: RequestInit & { json?: unknown },
  ) => Promise<{ status: number; body: any; headers: Headers }>;
  /** A request to /api/v2 with an MCP key (the demo write key unless `key` is given; null sends none). */
  v2: (
    path: string,
    init?: RequestInit & { json?: unknown; key?: string | null },
  ) => Promise<{ status: number; body: any; headers: Headers }>;
  /** A key created through the admin API for a user of the demo tenant. */
  newKey: (userId: number | string, scopes: ('read' | 'write')[]) => Promise<{ id: string; key: string }>;
  /** A request to the admin API with the admin token. */
  admin: (
    path: string,
    init?: RequestInit & { json?: unknown },
  ) => Promise<{ status: number; body: any; headers: Headers }>;
  close: () => Promise<void>;
}

export async function startHarness(
  seed = 'demo',
  limits: PipelineLimits = { requestsPerMinute: 0 },
  docs?: LoadDocs,
): Promise<Harness> {
  const state = loadSeed(seed);
  const platform = new Platform(new VirtualClock({ start: state.now, frozen: true }), loadSeed);
  platform.load(state);
  // The server `lmskit mock` runs (mock/server.ts); webhooks are delivered by the tests that want them.
  const running = await startServer({
    platform,
    adminToken: ADMIN_TOKEN,
    validateResponses: true,
    version: 'test',
    limits,
    docs,
    webhooks: false,
  });
  const base = running.url;

  const request =
    (prefix: string, auth: Record<string, string>) =>
    async (path: string, init: RequestInit & { json?: unknown } = {}) => {
      const { json, ...rest } = init;
      const headers = {
        ...auth,
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(rest.headers as Record<string, string>),
      };
      const response = await fetch(`${base}${prefix}${path}`, {
        ...rest,
        headers,
        ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {}
      return { status: response.status, body, headers: response.headers };
    };

  const admin = request('/__admin', { authorization: `Bearer ${ADMIN_TOKEN}` });
  const v2As = (key: string | null): V2Client =>
    createClient<V2Paths>({ baseUrl: `${base}/api/v2`, headers: key === null ? {} : { 'x-mcp-key': key } });
  return {
    platform,
    base,
    api: {
      v1: createClient<V1Paths>({
        baseUrl: `${base}/openapi/v1`,
        headers: { 'x-api-key': DEMO_SITE_API_KEY },
      }),
      v2: v2As(WRITE_KEY),
      v2As,
      admin: createAdminClient(base, ADMIN_TOKEN),
    },
    v1: request('/openapi/v1', { 'x-api-key': DEMO_SITE_API_KEY }),
    v2: (path, init = {}) => {
      const { key, ...rest } = init;
      const auth: Record<string, string> = key === null ? {} : { 'x-mcp-key': key ?? WRITE_KEY };
      return request('/api/v2', auth)(path, rest);
    },
    newKey: async (userId, scopes) => {
      const { body } = await admin('/tenants/demo/mcp-keys', { method: 'POST', json: { userId, scopes } });
      return body as { id: string; key: string };
    },
    admin,
    close: running.close,
  };
}
