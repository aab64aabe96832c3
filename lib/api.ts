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
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { ALL_CHECKS } from '../conformance/checks/index.ts';
import type { ConformanceConfig } from '../conformance/context.ts';
import { type JsonReport, jsonReport } from '../conformance/reporters/json.ts';
import { runChecks } from '../conformance/runner.ts';
import type { Result } from '../conformance/types.ts';
import type { operations as AdminOperations, components as AdminSchemas } from '../generated/admin.ts';
import { type McpServer, startMcpServer } from '../mcp-server/start.ts';
import { createApp } from '../mock/app.ts';
import { VirtualClock } from '../mock/domain/clock.ts';
import type { TenantData } from '../mock/domain/model.ts';
import { Platform, type RunSettings, type SeedLoader } from '../mock/domain/platform.ts';
import { mockAllowedHosts } from '../mock/http/hosts.ts';
import { MAX_JOURNAL_SIZE } from '../mock/http/journal.ts';
import { keepIdleConnections, REQUEST_TIMEOUTS } from '../mock/http/keep-alive.ts';
import { answerClientErrors } from '../mock/http/refusals.ts';
import { DEMO_TENANT, liveDemoKeys, START } from '../mock/seed/demo.ts';
import {
  aiSettingsProblem,
  FixtureProblem,
  fixturesFrom,
  readFixtureFile,
} from '../mock/seed/fixture-file.ts';
import { loadSeed, SEEDS } from '../mock/seed/index.ts';
import { parseScale, scaleProblem, scaleTenant } from '../mock/seed/scale.ts';
import { WebhookDispatcher } from '../mock/webhooks/dispatcher.ts';
import { type AdminClient, createAdminClient } from './admin-client.ts';
import { listensEverywhere } from './allowed-hosts.ts';
import { expressServer } from './express-server.ts';
import { ROOT } from './paths.ts';

export type { JsonReport as ConformanceReport } from '../conformance/reporters/json.ts';
export type { Result as ConformanceResult } from '../conformance/types.ts';
export type { McpServer, McpServerOptions } from '../mcp-server/start.ts';
export type { AdminClient } from './admin-client.ts';
export { startMcpServer };

type Admin = AdminSchemas['schemas'];
type JournalEntry = Admin['JournalEntry'];
/** A request the mock answered, in full: the journal's entry with its request and answer (bodies parsed, secrets masked). */
export type JournalRequest = JournalEntry & Required<Pick<JournalEntry, 'request' | 'response'>>;
type JournalQuery = NonNullable<AdminOperations['getRequestJournal']['parameters']['query']>;
/**
 * Which requests `mock.requests` returns: the filters of `GET /__admin/journal` (all must hold), with
 * `body` a JSON value the request's JSON body must match (an object: at least its properties; an array:
 * the same items; anything else: equal), and `limit` the most recent requests to look at.
 */
export type RequestFilter = Omit<JournalQuery, 'body' | 'full'> & { body?: unknown };
/** A fault to inject (`POST /__admin/faults`): which requests, how many, and the answer or delay. */
export type FaultSpec = Admin['CreateFaultRequest'];
export type Fault = Admin['Fault'];
/** What `mock.reset` loads and keeps (`POST /__admin/reset`). */
export type ResetOptions = Admin['ResetRequest'];
export type ResetResult = Admin['ResetResult'];
/** A platform state written by hand (`POST /__admin/fixtures`, docs/mock.md, Fixtures). */
export type Fixture = Admin['Fixture'];
/** AI settings of every tenant the mock starts with (`PATCH /__admin/tenants/{tenantId}/ai`). */
export type AiSettingsPatch = Admin['UpdateAiSettingsRequest'];
/** The state after `loadFixtures`: the virtual time and the tenants loaded. */
export type LoadFixturesResult = Admin['ImportSnapshotResult'];

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
   * Fixtures to start from instead of a seed: a path to a YAML or JSON file (relative to the working
   * directory), or the object itself, of the admin contract's `Fixture` schema. `tenantId`,
   * `siteApiKey` and `mcpKeys` are then those of its first tenant. A problem rejects with a sentence
   * naming the entry and field (`startMock: fixtures: tenants[0].users[2].email: already used by …`).
   */
  fixtures?: string | Fixture;
  /**
   * A large deterministic seed instead, as `lmskit mock --seed-scale`: `users=100000,courses=1000,
   * assignments=500000` (tenant `demo`, the demo keys); refused when it would not fit in memory.
   */
  seedScale?: string;
  /**
   * The course generator's settings of every tenant the mock starts with, and of those a reset or
   * `loadFixtures` brings (fixtures' own `ai` wins): `{ generationMinSeconds: 0, generationMaxSeconds: 0 }`
   * finishes generation jobs at once, even on a frozen clock. Default: 10 to 30 s of virtual time.
   */
  ai?: AiSettingsPatch;
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
  /** The tenant's site API key (the demo's, or the fixtures' first tenant's), for `X-API-KEY` of `/openapi/v1`. */
  siteApiKey: string;
  /**
   * MCP keys of the tenant's administrator, ada, for `X-MCP-Key` of `/api/v2` and the tool server;
   * with fixtures, the first read-only and the first write key they give (else keys made for the
   * tenant's first administrator).
   */
  mcpKeys: { read: string; write: string };
  /** The tenant the keys select (`demo`, or the fixtures' first tenant); the admin API's paths take it as `tenantId`. */
  tenantId: string;
  adminToken: string;
  /** The admin API of this mock, typed from its contract: clock, licence, keys, journal, reset, faults. */
  admin: AdminClient;
  /**
   * The requests the mock answered that pass `filter`, oldest first, each in full (request and answer
   * bodies parsed, secrets masked): what a client sent, to assert on (`GET /__admin/journal?full=true`).
   * An unknown filter is refused (the promise rejects, naming it).
   */
  requests(filter?: RequestFilter): Promise<JournalRequest[]>;
  /** Empties the request journal (`DELETE /__admin/journal`): `requests()` then shows only what came after. */
  clearRequests(): Promise<void>;
  /** Injects a fault (`POST /__admin/faults`), e.g. `{ tool: 'ban_user', status: 503 }`; resolves to it. */
  fault(fault: FaultSpec): Promise<Fault>;
  /** Removes every fault (`DELETE /__admin/faults`). */
  clearFaults(): Promise<void>;
  /**
   * Puts back everything a test can change (`POST /__admin/reset`): the state the mock started from
   * (its seed or its fixtures; `seed` names another), the clock, the rate-limit counters, the faults and
   * the journal, unless `keep` names some; resolves to what it reset.
   */
  reset(options?: ResetOptions): Promise<ResetResult>;
  /**
   * An official MCP SDK client of the tool server for this mock, connected with `key` (one of
   * `mcpKeys`, or a key minted through the admin API): the first call starts the tool server in this
   * process (`startMcpServer({ baseUrl: url })`, once per mock), and `stop()` stops it and closes
   * its clients. For its URL, an upload root or a key of its own, call `startMcpServer` instead.
   */
  mcpClient(key: string): Promise<McpClient>;
  /**
   * Replaces the whole state with fixtures (`POST /__admin/fixtures`): a path to a YAML or JSON file,
   * the object itself, or, without an argument, the fixtures this mock started from. Faults and the
   * journal stay; after `reset()`, which loads a seed, it brings a test's own data back. Rejects with
   * the admin API's sentence, which names the entry and field.
   */
  loadFixtures(fixtures?: string | Fixture): Promise<LoadFixturesResult>;
  /**
   * Closes the port and every open connection, stops webhook deliveries, and stops the tool server
   * `mcpClient` started, with its clients. Safe to call twice.
   */
  stop(): Promise<void>;
}

/** The official MCP SDK's client (`@modelcontextprotocol/sdk/client/index.js`), as `mcpClient` returns it. */
export type McpClient = Awaited<ReturnType<McpServer['client']>>;

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

  const start = startingState(options, seedName);
  const platform = new Platform(
    new VirtualClock({ start: start.state?.now ?? START, frozen: clock === 'frozen' }),
    start.seeds,
    start.settings,
  );
  platform.load(start.state ?? platform.seeds(start.seed), true);
  const adminToken = options.adminToken || randomBytes(16).toString('hex');
  const { app } = createApp({
    platform,
    adminToken,
    version: VERSION,
    limits: { requestsPerMinute: rateLimit },
    journalSize: options.journalSize,
    allowedHosts,
    start: start.fixture ? { fixture: start.fixture } : { seed: start.seed },
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
  /** The tool server of mcpClient, started on its first call. */
  let tools: Promise<McpServer> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await tools?.then((t) => t.stop()).catch(() => {});
      await new Promise<void>((resolve) => {
        dispatcher.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      });
    })();
    return stopped;
  };
  const mcpClient = async (key: string) => {
    if (stopped) throw new Error('mock.mcpClient: the mock is stopped');
    tools ??= startMcpServer({ baseUrl: url });
    return (await tools).client(key);
  };

  try {
    const tenantId = start.fixture?.tenants[0]?.id ?? DEMO_TENANT;
    const tenant = platform.tenants.get(tenantId);
    if (!tenant) throw new Error(`the seed has no tenant ${tenantId}`);
    return {
      url,
      siteApiKey: tenant.siteApiKey,
      mcpKeys: start.fixture ? await fixtureKeysOf(start.fixture, admin) : await mcpKeysOf(platform, admin),
      tenantId,
      loadFixtures: async (fixtures = start.fixture) => {
        if (fixtures === undefined)
          throw new Error('mock.loadFixtures: which fixtures? This mock did not start from fixtures.');
        let body: Fixture;
        try {
          body = (typeof fixtures === 'string' ? readFixtureFile(fixtures) : fixtures) as Fixture;
        } catch (error) {
          throw new Error(`mock.loadFixtures: ${(error as Error).message}`);
        }
        const { data, error } = await admin.POST('/fixtures', { body });
        if (!data)
          throw new Error(`mock.loadFixtures: ${error?.code ?? 'ERROR'}: ${error?.error ?? 'no answer'}`);
        return data;
      },
      adminToken,
      admin,
      ...verifyApi(admin),
      mcpClient,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * What a mock starts from — a seed, the scale seed or fixtures — and the settings of its run (`ai`);
 * an Error with a sentence when an option is wrong.
 */
function startingState(
  options: MockOptions,
  seedName: string,
): {
  settings: RunSettings;
  seeds: SeedLoader;
  seed: string;
  state?: { now: number; tenants: TenantData[] };
  fixture?: Fixture;
} {
  const given = (['seed', 'fixtures', 'seedScale'] as const).filter((o) => options[o] !== undefined);
  if (given.length > 1)
    throw new Error(`startMock: ${given.join(' and ')} each give the state to start from; give one`);
  const problem = options.ai === undefined ? null : aiSettingsProblem(options.ai);
  if (problem) throw new Error(`startMock: ai: ${problem}`);
  const settings: RunSettings = options.ai ? { ai: options.ai } : {};
  if (options.fixtures !== undefined) {
    try {
      const { fixture, state } = fixturesFrom(options.fixtures, settings);
      return { settings, seeds: loadSeed, seed: seedName, state, fixture };
    } catch (error) {
      if (error instanceof FixtureProblem) throw new Error(`startMock: fixtures: ${error.message}`);
      throw error;
    }
  }
  const spec = options.seedScale;
  if (spec === undefined) return { settings, seeds: loadSeed, seed: seedName };
  let sizes: ReturnType<typeof parseScale>;
  try {
    sizes = parseScale(spec);
  } catch (error) {
    throw new Error(`startMock: ${(error as Error).message.replace('--seed-scale', 'seedScale')}`);
  }
  const tooLarge = scaleProblem(spec, sizes, {
    heapBytes: getHeapStatistics().heap_size_limit,
    totalBytes: Math.min(totalmem(), process.constrainedMemory?.() || Number.POSITIVE_INFINITY),
  });
  if (tooLarge) throw new Error(`startMock: ${tooLarge.replace('--seed-scale', 'seedScale')}`);
  // A reset names demo or empty; `scale` is only where this mock starts, as with --seed-scale.
  const seeds: SeedLoader = (name) =>
    name === 'scale' ? { now: START, tenants: [scaleTenant(sizes)] } : loadSeed(name);
  return { settings, seeds, seed: 'scale' };
}

/** The `Mock` methods over the journal, the faults and the reset: each one admin call, a refusal thrown as its sentence. */
function verifyApi(
  admin: AdminClient,
): Pick<Mock, 'requests' | 'clearRequests' | 'fault' | 'clearFaults' | 'reset'> {
  const answer = <T>(call: string, result: { data?: T; error?: unknown }): T => {
    if (result.data === undefined) {
      const { error, code } = (result.error ?? {}) as { error?: string; code?: string };
      throw new Error(`mock.${call}: ${code ?? 'ERROR'}: ${error ?? 'the admin API gave no answer'}`);
    }
    return result.data;
  };
  return {
    requests: async (filter = {}) => {
      const { body, limit = MAX_JOURNAL_SIZE, ...rest } = filter;
      const query = {
        ...rest,
        limit,
        full: true,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      };
      const journal = answer('requests', await admin.GET('/journal', { params: { query } }));
      // With full=true every entry carries its request and answer (openapi/admin, JournalEntry).
      return (journal.requests as JournalRequest[]).reverse();
    },
    clearRequests: async () => {
      answer('clearRequests', await admin.DELETE('/journal'));
    },
    fault: async (fault) => answer('fault', await admin.POST('/faults', { body: fault })),
    clearFaults: async () => {
      answer('clearFaults', await admin.DELETE('/faults'));
    },
    reset: async (options = {}) => answer('reset', await admin.POST('/reset', { body: options })),
  };
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

/**
 * Keys of the fixtures' first tenant: the first live read-only key and the first live key with
 * `write` whose text the fixtures give; one they lack is made through the admin API for the tenant's
 * first administrator. When it cannot be (no administrator, no MCP licence), reading it throws the
 * reason: fixtures that never need it still start.
 */
async function fixtureKeysOf(fixture: Fixture, admin: AdminClient): Promise<Mock['mcpKeys']> {
  const tenant = fixture.tenants[0];
  const live = (tenant?.mcpKeys ?? []).filter((k) => !k.revoked);
  const owner = tenant?.users?.find((u) => u.role === 'admin' && !u.banned)?.id;
  const keys = {} as Mock['mcpKeys'];
  for (const scope of ['read', 'write'] as const) {
    const given = live.find((k) => k.scopes.includes('write') === (scope === 'write'))?.key;
    let key: string | Error =
      given ??
      new Error(
        `the fixtures' tenant ${tenant?.id} has no administrator to own MCP keys and gives no ${scope} key`,
      );
    if (!given && owner) {
      const { data, error } = await admin.POST('/tenants/{tenantId}/mcp-keys', {
        params: { path: { tenantId: tenant?.id ?? '' } },
        body: { userId: owner, scopes: scope === 'write' ? ['read', 'write'] : ['read'] },
      });
      key = data?.key ?? new Error(`no ${scope} key could be made for ${owner}: ${error?.error}`);
    }
    if (typeof key === 'string') keys[scope] = key;
    else {
      const why = key;
      Object.defineProperty(keys, scope, {
        enumerable: true,
        get: () => {
          throw new Error(`mock.mcpKeys.${scope}: ${why.message}`);
        },
      });
    }
  }
  return keys;
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
