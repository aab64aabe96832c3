// startMock: a mock of both APIs and the admin API in the caller's process (package/index.ts says why
// in-process), from the demo, a scale seed or fixtures, with the verify API over its admin API.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { type AdminClient, createAdminClient } from '../lib/admin-client.ts';
import { listensEverywhere } from '../lib/allowed-hosts.ts';
import { ROOT } from '../lib/paths.ts';
import { type McpServer, startMcpServer } from '../mcp-server/start.ts';
import { VirtualClock } from '../mock/domain/clock.ts';
import type { TenantData } from '../mock/domain/model.ts';
import { Platform, type RunSettings, type SeedLoader } from '../mock/domain/platform.ts';
import { adminTokenProblem } from '../mock/http/admin/token.ts';
import { mockAllowedHosts } from '../mock/http/hosts.ts';
import { MAX_JOURNAL_SIZE } from '../mock/http/journal.ts';
import { DEMO_TENANT, liveDemoKeys, START } from '../mock/seed/demo.ts';
import {
  aiSettingsProblem,
  FixtureProblem,
  fixturesFrom,
  readFixtureFile,
} from '../mock/seed/fixture-file.ts';
import { loadSeed, SEEDS } from '../mock/seed/index.ts';
import { parseScale, scaleProblem, scaleTenant } from '../mock/seed/scale.ts';
import { type RunningMock, startServer } from '../mock/server.ts';
import { PostgresStore } from '../mock/store/postgres-store.ts';
import type { Fixture, JournalRequest, Mock, MockOptions } from './types.ts';

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

  if (listensEverywhere(host) && !options.allowedHosts?.length)
    console.warn(
      `startMock: listening on every interface, but only requests whose Host is ${allowedHosts.join(', ')} are served; name the others in allowedHosts`,
    );

  const start = startingState(options, seedName);
  const platform = new Platform(
    new VirtualClock({ start: start.state?.now ?? START, frozen: clock === 'frozen' }),
    start.seeds,
    start.settings,
  );
  platform.load(start.state ?? platform.seeds(start.seed), true);
  // A shared store (docs/mock.md, Shared sandbox): this mock makes the platform there, or joins it.
  const store =
    options.store === undefined ? undefined : (await PostgresStore.open(options.store, platform)).store;
  // The rules of the command's --admin-token: a token a caller could guess, or never match, is refused.
  const tokenProblem = options.adminToken === undefined ? null : adminTokenProblem(options.adminToken);
  if (tokenProblem) throw new Error(`startMock: ${tokenProblem.replace('--admin-token', 'adminToken')}`);
  const adminToken = options.adminToken ?? randomBytes(16).toString('hex');
  let running: RunningMock;
  try {
    running = await startServer({
      platform,
      adminToken,
      version: VERSION,
      limits: { requestsPerMinute: rateLimit },
      counters: store?.limitCounters(),
      deliveryClaims: store?.deliveryClaims(),
      journalSize: options.journalSize,
      // One journal for every mock of the store: `mock.requests()` lists what any of them answered.
      journalStore: store?.journal.bind(store),
      allowedHosts,
      start: start.fixture ? { fixture: start.fixture } : { seed: start.seed },
      port,
      host,
    });
  } catch (error) {
    await store?.close();
    throw new Error(`startMock: cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  const { url } = running;
  const admin = createAdminClient(url, adminToken);

  let stopped: Promise<void> | undefined;
  /** The tool server of mcpClient, started on its first call. */
  let tools: Promise<McpServer> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      await tools?.then((t) => t.stop()).catch(() => {});
      await running.close();
      await store?.close();
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
