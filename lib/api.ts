// The kit's programmatic API, the package's main entry (`import { startMock } from 'lmskit'`): a mock
// started from an integrator's own test suite, and the conformance suite run from code. What is
// exported here is a promise to integrators (docs/guide.md, "Use it from your tests"); change it the
// way a library changes its API.
//
// startMock runs the mock in the caller's process, not as a child process: a test suite starts many
// (one per file or per test) and each starts in milliseconds once the kit is loaded, stop()
// resolves once the port is closed, and no process is left behind when the test runner is killed.
// Each mock has its own platform state, virtual clock, limits, upload extractor, admin token and
// webhook dispatcher on its own port, and the kit keeps nothing that changes at module level, so
// mocks in one process do not see each other. What a child process would add — a crash
// of the mock not taking the tests along — the mock does not need: every error ends in an answer in
// the API's shape. A suite that wants the process anyway runs `npx lmskit mock --port N`.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ALL_CHECKS } from '../conformance/checks/index.ts';
import type { ConformanceConfig } from '../conformance/context.ts';
import { type JsonReport, jsonReport } from '../conformance/reporters/json.ts';
import { runChecks } from '../conformance/runner.ts';
import type { Result } from '../conformance/types.ts';
import { createApp } from '../mock/app.ts';
import { VirtualClock } from '../mock/domain/clock.ts';
import { Platform } from '../mock/domain/platform.ts';
import { mockAllowedHosts } from '../mock/http/hosts.ts';
import { MAX_JOURNAL_SIZE } from '../mock/http/journal.ts';
import { keepIdleConnections, REQUEST_TIMEOUTS } from '../mock/http/keep-alive.ts';
import { answerClientErrors } from '../mock/http/refusals.ts';
import { DEMO_TENANT, liveDemoKeys } from '../mock/seed/demo.ts';
import { loadSeed, SEEDS } from '../mock/seed/index.ts';
import { WebhookDispatcher } from '../mock/webhooks/dispatcher.ts';
import { type AdminClient, createAdminClient } from './admin-client.ts';
import { listensEverywhere } from './allowed-hosts.ts';
import { expressServer } from './express-server.ts';
import { ROOT } from './paths.ts';

export type { JsonReport as ConformanceReport } from '../conformance/reporters/json.ts';
export type { Result as ConformanceResult } from '../conformance/types.ts';
export type { AdminClient } from './admin-client.ts';

export interface MockOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to bind; default `127.0.0.1`. */
  host?: string;
  /**
   * Host names besides localhost's and `host` that requests may name in their Host header (as
   * `--allowed-hosts`); a request naming any other is refused 403 (DNS rebinding).
   */
  allowedHosts?: string[];
  /**
   * The state to start from: `demo` (the default: the Demo Academy of docs/mock.md, 13 users, 48
   * courses, licence `full` with AI) or `empty` (the same tenant and site key with only its
   * administrator, ada).
   */
  seed?: 'demo' | 'empty';
  /**
   * `frozen` (the default): the virtual clock moves only when the test advances or sets it
   * (`admin.POST('/clock/advance')`), so timestamps and deadlines are the same on every run.
   * `running`: it follows wall time from the seed's start, as `npx lmskit mock` does.
   */
  clock?: 'frozen' | 'running';
  /** Bearer token of `/__admin`; default: random. */
  adminToken?: string;
  /** `/api/v2` requests per MCP key per minute; default 120, 0 = no limit. */
  rateLimit?: number;
  /** Requests the request journal keeps (`admin.GET('/journal')`), 1 to 100 000; default 1000. */
  journalSize?: number;
}

export interface Mock {
  /** The mock's origin, e.g. `http://127.0.0.1:41233`; the APIs are under `/openapi/v1`, `/api/v2`, `/__admin`. */
  url: string;
  /** The demo tenant's site API key, for `X-API-KEY` of `/openapi/v1`. */
  siteApiKey: string;
  /** MCP keys of the tenant's administrator, ada, for `X-MCP-Key` of `/api/v2` and the tool server. */
  mcpKeys: { read: string; write: string };
  /** The tenant every API acts on (`demo`); the admin API's paths take it as `tenantId`. */
  tenantId: string;
  adminToken: string;
  /** The admin API of this mock, typed from its contract: clock, licence, keys, journal, reset, faults. */
  admin: AdminClient;
  /** Closes the port and every open connection, and stops webhook deliveries. Safe to call twice. */
  stop(): Promise<void>;
}

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** Starts an isolated mock of both APIs and the admin API; resolves once it listens. */
export async function startMock(options: MockOptions = {}): Promise<Mock> {
  const {
    port = 0,
    host = '127.0.0.1',
    seed: seedName = 'demo',
    clock = 'frozen',
    rateLimit = 120,
  } = options;
  if (!Object.hasOwn(SEEDS, seedName))
    throw new Error(`startMock: unknown seed ${seedName}; known: ${Object.keys(SEEDS).join(', ')}`);
  if (clock !== 'frozen' && clock !== 'running')
    throw new Error(`startMock: clock is 'frozen' or 'running', not ${String(clock)}`);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`startMock: not a port: ${port}`);
  if (!Number.isInteger(rateLimit) || rateLimit < 0)
    throw new Error(`startMock: rateLimit takes a whole number ≥ 0, not ${rateLimit}`);

  if (
    options.journalSize !== undefined &&
    !(
      Number.isInteger(options.journalSize) &&
      options.journalSize >= 1 &&
      options.journalSize <= MAX_JOURNAL_SIZE
    )
  )
    throw new Error(
      `startMock: journalSize takes a whole number from 1 to ${MAX_JOURNAL_SIZE}, not ${options.journalSize}`,
    );

  let allowedHosts: string[];
  try {
    allowedHosts = mockAllowedHosts(host, options.allowedHosts ?? []);
  } catch {
    throw new Error(
      `startMock: not a host name in host or allowedHosts: ${host} ${options.allowedHosts ?? ''}`,
    );
  }

  const seed = loadSeed(seedName);
  const platform = new Platform(new VirtualClock({ start: seed.now, frozen: clock === 'frozen' }), loadSeed);
  platform.load(seed, true);
  const adminToken = options.adminToken || randomBytes(16).toString('hex');
  const { app } = createApp({
    platform,
    adminToken,
    version: VERSION,
    limits: { requestsPerMinute: rateLimit },
    journalSize: options.journalSize,
    allowedHosts,
  });
  const dispatcher = new WebhookDispatcher(platform);
  dispatcher.start();

  const server = expressServer(app, REQUEST_TIMEOUTS).listen(port, host);
  answerClientErrors(server);
  keepIdleConnections(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
  } catch (error) {
    dispatcher.stop();
    throw new Error(`startMock: cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  const { port: bound } = server.address() as AddressInfo;
  // Listening on every interface, the URL names 127.0.0.1, a host the Host check serves.
  const shown = listensEverywhere(host) ? '127.0.0.1' : host;
  const url = `http://${shown.includes(':') ? `[${shown}]` : shown}:${bound}`;
  const admin = createAdminClient(url, adminToken);

  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= new Promise<void>((resolve) => {
      dispatcher.stop();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return stopped;
  };

  try {
    const tenant = platform.tenants.get(DEMO_TENANT);
    if (!tenant) throw new Error(`the seed has no tenant ${DEMO_TENANT}`);
    return {
      url,
      siteApiKey: tenant.siteApiKey,
      mcpKeys: await mcpKeysOf(platform, admin),
      tenantId: DEMO_TENANT,
      adminToken,
      admin,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The demo keys when the seed holds them; otherwise (the `empty` seed) a read key and a read + write
 * key made for the administrator through the admin API, as a test would make them.
 */
async function mcpKeysOf(platform: Platform, admin: AdminClient): Promise<Mock['mcpKeys']> {
  const demo = Object.fromEntries(liveDemoKeys(platform).map((k) => [k.name, k.key]));
  if (demo.read && demo.write) return { read: demo.read, write: demo.write };
  const tenant = { path: { tenantId: DEMO_TENANT } };
  const { data: list, error } = await admin.GET('/tenants/{tenantId}/users', { params: tenant });
  const owner = list?.users.find((u) => u.role === 'admin');
  if (!owner)
    throw new Error(`the seed's tenant has no administrator to own MCP keys (${error?.error ?? ''})`);
  const make = async (scopes: ('read' | 'write')[]) => {
    const { data, error } = await admin.POST('/tenants/{tenantId}/mcp-keys', {
      params: tenant,
      body: { userId: owner.id, scopes },
    });
    if (!data) throw new Error(`an MCP key could not be made: ${error?.error}`);
    return data.key;
  };
  return { read: await make(['read']), write: await make(['read', 'write']) };
}

export interface ConformanceOptions
  extends Omit<ConformanceConfig, 'mcpKeys' | 'allowWrites' | 'timeoutMs' | 'pollIntervalMs'> {
  /** MCP keys of several kinds (a read-only one and a read + write one run the most checks). */
  mcpKeys?: string[];
  /** Run the checks that create fixtures on the deployment; default false. */
  allowWrites?: boolean;
  /** Called with each check's result as it comes in. */
  onResult?: (result: Result) => void;
}

/**
 * Runs the conformance suite against a deployment (or a mock) and resolves to the report that
 * `npx lmskit conformance --report json=FILE` writes, with the run's `outcome`: `passed` only when
 * every MUST ran and passed (docs/conformance.md).
 */
export async function runConformance(options: ConformanceOptions): Promise<JsonReport> {
  const { onResult, mcpKeys = [], allowWrites = false, ...rest } = options;
  if (!rest.baseUrl) throw new Error('runConformance: baseUrl is required');
  if (!URL.canParse(rest.baseUrl)) throw new Error(`runConformance: baseUrl is not a URL: ${rest.baseUrl}`);
  return jsonReport(await runChecks(ALL_CHECKS, { ...rest, mcpKeys, allowWrites }, onResult));
}
