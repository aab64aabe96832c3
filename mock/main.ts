// `npm start` / `npx lmskit mock`: the stateful mock on one port, with the banner a newcomer needs.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { listensEverywhere } from '../lib/allowed-hosts.ts';
import { fromEnv, parseCommandLine, portOf, usageError, wholeNumber } from '../lib/cli.ts';
import { trustProxySetting } from '../lib/client-address.ts';
import { ROOT } from '../lib/paths.ts';
import { VirtualClock } from './domain/clock.ts';
import { Platform, type RunSettings, UnknownCommand } from './domain/platform.ts';
import { adminTokenProblem } from './http/admin/token.ts';
import { DOCS_BUILD_TIME, docsBuildable, mockDocs } from './http/docs.ts';
import { mockAllowedHosts } from './http/hosts.ts';
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE } from './http/journal.ts';
import { DEMO_TENANT, liveDemoKeys, START } from './seed/demo.ts';
import { FixtureProblem, fixturesFrom } from './seed/fixture-file.ts';
import { loadSeed, SEEDS } from './seed/index.ts';
import { parseScale, scaleProblem, scaleTenant } from './seed/scale.ts';
import { type RunningMock, startServer } from './server.ts';
import type { PostgresStore } from './store/postgres-store.ts';
import {
  openWarnings,
  StateFile,
  StateFileDamaged,
  StateFileFromNewerVersion,
  StateFileUnusable,
} from './store/state-file.ts';
import { maskedStoreUrl } from './store/store-url.ts';

// The old generation grows by half of what survived a full collection, not by V8's default factor
// (up to 4x): under steady load a request's short-lived objects are promoted when a scavenge finds
// them in flight, and with the default factor the heap grew to five times its live size before a full
// collection ran. Measured in bench/RESULTS.md (Memory under mixed load). The rest of the heap's
// sizing (the young generation's bound, a 32 MB floor under which no full collection runs) is read by
// V8 only at start, so bin/lmskit.js's first line sets it.
setFlagsFromString('--heap-growing-percent=50');

const HELP = `usage: lmskit mock [options]

  --port N            port to listen on (LMSKIT_PORT, default 4010)
  --host H            address to bind (LMSKIT_HOST, default 127.0.0.1)
  --allowed-hosts H   more host names the Host header may carry, comma-separated (LMSKIT_ALLOWED_HOSTS);
                      localhost, 127.0.0.1, [::1] and the --host address always; others get 403 (DNS rebinding)
  --admin-token T     bearer token of /__admin, 16 to 1024 printable ASCII characters without spaces
                      (LMSKIT_ADMIN_TOKEN, default: random, printed)
  --state-file F      keep the state in F across restarts: a regular file, a new path, or a symbolic
                      link to a file, written through (LMSKIT_STATE_FILE, default: in memory)
  --store URL         share one platform among every mock started with the same PostgreSQL database,
                      postgres://USER:PASSWORD@HOST:PORT/DB (LMSKIT_STORE; docs/mock.md, Shared sandbox);
                      the first replica's seed or fixtures start it, the others join its state
  --fsync             with --state-file: answer a write only once its line is flushed to disk
                      (fdatasync, in batches), so it survives a power cut, not only a crash
  --recover           start from the readable part of a damaged state file, or without the lines a
                      newer lmskit wrote (the file is kept aside)
  --seed NAME         seed of a fresh state: ${Object.keys(SEEDS).join(', ')} (LMSKIT_SEED, default demo)
  --seed-scale SPEC   a seed of the given size instead: users=100000,courses=1000,assignments=500000
                      (refused when it would not fit in memory)
  --fixtures FILE     start instead from the tenants, users, groups, courses, assignments and MCP keys a
                      YAML or JSON file describes, at most 4 MB (LMSKIT_FIXTURES; docs/mock.md, Fixtures);
                      a problem is named by entry and field, and the mock exits 2
  --ai-seconds N      seconds of virtual time a course generation job takes, 0 to 3600, on every tenant of
                      the seed or the fixtures, at start and after a reset (LMSKIT_AI_SECONDS; default 10 to 30)
  --frozen-clock      the virtual clock moves only when advanced through /__admin
  --rate-limit N      /api/v2 requests per MCP key per minute (LMSKIT_RATE_LIMIT, default 120; 0 = off)
  --journal-size N    requests the request journal keeps, 1 to 100000 (LMSKIT_JOURNAL_SIZE, default 1000)
  --webhook-timeout S seconds a webhook receiver has to answer, 1 to 600 (LMSKIT_WEBHOOK_TIMEOUT, default 5)
  --trust-proxy LIST  peers whose X-Forwarded-For names the client, for the failed-login limit per client
                      (LMSKIT_TRUST_PROXY: addresses, subnets, loopback or none; default loopback)

An empty LMSKIT_* variable counts as unset: it gives the default. An empty flag is refused.
`;

const values = parseCommandLine(
  {
    port: { type: 'string', default: fromEnv('LMSKIT_PORT') ?? '4010' },
    host: { type: 'string', default: fromEnv('LMSKIT_HOST') ?? '127.0.0.1' },
    'allowed-hosts': { type: 'string', default: fromEnv('LMSKIT_ALLOWED_HOSTS') },
    'admin-token': { type: 'string', default: fromEnv('LMSKIT_ADMIN_TOKEN') },
    'state-file': { type: 'string', default: fromEnv('LMSKIT_STATE_FILE') },
    store: { type: 'string', default: fromEnv('LMSKIT_STORE') },
    recover: { type: 'boolean', default: false },
    fsync: { type: 'boolean', default: false },
    seed: { type: 'string', default: fromEnv('LMSKIT_SEED') },
    'seed-scale': { type: 'string' },
    fixtures: { type: 'string', default: fromEnv('LMSKIT_FIXTURES') },
    'ai-seconds': { type: 'string', default: fromEnv('LMSKIT_AI_SECONDS') },
    'frozen-clock': { type: 'boolean', default: false },
    'rate-limit': { type: 'string', default: fromEnv('LMSKIT_RATE_LIMIT') ?? '120' },
    'trust-proxy': { type: 'string', default: fromEnv('LMSKIT_TRUST_PROXY') ?? 'loopback' },
    'webhook-timeout': { type: 'string', default: fromEnv('LMSKIT_WEBHOOK_TIMEOUT') ?? '5' },
    'journal-size': {
      type: 'string',
      default: fromEnv('LMSKIT_JOURNAL_SIZE') ?? String(DEFAULT_JOURNAL_SIZE),
    },
  },
  HELP,
);
const seedName = values.seed ?? 'demo';
if (!SEEDS[seedName]) usageError(`unknown seed ${seedName}; known: ${Object.keys(SEEDS).join(', ')}`, HELP);
if (values.fixtures !== undefined && (values.seed !== undefined || values['seed-scale'] !== undefined))
  usageError(
    '--fixtures gives the state to start from, as --seed and --seed-scale do: give one of them',
    HELP,
  );
let settings: RunSettings = {};
if (values['ai-seconds'] !== undefined) {
  const seconds = wholeNumber(values['ai-seconds']);
  if (seconds === undefined || seconds > 3600)
    usageError(
      `--ai-seconds takes a whole number of seconds from 0 to 3600, not ${values['ai-seconds']}`,
      HELP,
    );
  settings = { ai: { generationMinSeconds: seconds, generationMaxSeconds: seconds } };
}
const port = portOf(values.port, HELP);
const rateLimit =
  wholeNumber(values['rate-limit']) ??
  usageError(`--rate-limit takes a whole number ≥ 0, not ${values['rate-limit']}`, HELP);
const journalSize = wholeNumber(values['journal-size']) ?? 0;
if (journalSize < 1 || journalSize > MAX_JOURNAL_SIZE)
  usageError(
    `--journal-size takes a whole number from 1 to ${MAX_JOURNAL_SIZE}, not ${values['journal-size']}`,
    HELP,
  );
const webhookTimeout = wholeNumber(values['webhook-timeout']) ?? 0;
if (webhookTimeout < 1 || webhookTimeout > 600)
  usageError(
    `--webhook-timeout takes a whole number of seconds from 1 to 600, not ${values['webhook-timeout']}`,
    HELP,
  );
let trustProxy: string | false = false;
try {
  trustProxy = trustProxySetting(values['trust-proxy']);
} catch (error) {
  usageError((error as Error).message, HELP);
}

let allowedHosts: string[] = [];
try {
  const extra = (values['allowed-hosts'] ?? '').split(',').map((h) => h.trim());
  allowedHosts = mockAllowedHosts(values.host, extra.filter(Boolean));
} catch {
  usageError(
    `not a host name in --host or --allowed-hosts: ${values.host} ${values['allowed-hosts'] ?? ''}`,
    HELP,
  );
}
if (listensEverywhere(values.host) && !values['allowed-hosts'])
  console.warn(
    `lmskit mock: listening on every interface, but only requests whose Host is ${allowedHosts.join(', ')} are served; name the others with --allowed-hosts`,
  );

const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
if (values['admin-token'] !== undefined) {
  const problem = adminTokenProblem(values['admin-token']);
  if (problem) usageError(problem, HELP);
}
const adminToken = values['admin-token'] ?? randomBytes(16).toString('hex');
if (values.store !== undefined && values['state-file'] !== undefined)
  usageError('--store and --state-file both keep the state: give one of them', HELP);
if (values.store !== undefined && !/^postgres(ql)?:\/\//.test(values.store))
  usageError(
    `--store takes a PostgreSQL URL, postgres://USER:PASSWORD@HOST:PORT/DB, not ${maskedStoreUrl(values.store)}`,
    HELP,
  );
if (values.fsync && !values['state-file'])
  usageError('--fsync needs --state-file: without a state file nothing is written to disk', HELP);
let seeds = loadSeed;
if (values['seed-scale']) {
  let sizes: ReturnType<typeof parseScale>;
  try {
    sizes = parseScale(values['seed-scale']);
  } catch (error) {
    usageError((error as Error).message, HELP);
  }
  // Before anything is built: past V8's heap limit the build collected for half a minute, then died.
  const problem = scaleProblem(values['seed-scale'], sizes, {
    heapBytes: getHeapStatistics().heap_size_limit,
    totalBytes: Math.min(totalmem(), process.constrainedMemory?.() || Number.POSITIVE_INFINITY),
  });
  if (problem) usageError(problem, HELP);
  seeds = (name) => (name === 'scale' ? { now: START, tenants: [scaleTenant(sizes)] } : loadSeed(name));
}
// Fixtures are checked and built before anything starts: a problem is one sentence and exit code 2.
let fixtures: ReturnType<typeof fixturesFrom> | undefined;
if (values.fixtures !== undefined) {
  try {
    fixtures = fixturesFrom(values.fixtures, settings);
  } catch (error) {
    if (!(error instanceof FixtureProblem)) throw error;
    console.error(`lmskit mock: --fixtures ${error.message}`);
    process.exit(2);
  }
}
// Every seed starts at START; fixtures at their own `now`.
const platform = new Platform(
  new VirtualClock({ start: fixtures?.state.now ?? START, frozen: values['frozen-clock'] }),
  seeds,
  settings,
);
platform.load(fixtures?.state ?? platform.seeds(values['seed-scale'] ? 'scale' : seedName), true);

const compactEveryText = fromEnv('LMSKIT_COMPACT_EVERY');
const compactEvery = compactEveryText === undefined ? undefined : wholeNumber(compactEveryText);
if (compactEveryText !== undefined && (compactEvery === undefined || compactEvery < 1))
  usageError(`LMSKIT_COMPACT_EVERY takes a whole number ≥ 1, not ${compactEveryText}`, HELP);
const stateFile = values['state-file']
  ? new StateFile(values['state-file'], {
      compactEvery,
      fsync: values.fsync,
      // Writes since the last flush ran but may not be on disk: what memory holds can no longer be
      // vouched for, so the mock stops rather than answer from it (docs/mock.md, Durable state).
      onSyncFailure: (message) => {
        console.error(`lmskit mock: ${message}`);
        process.exit(3);
      },
    })
  : null;
if (stateFile) {
  try {
    const report = stateFile.open(platform, { recover: values.recover });
    for (const warning of openWarnings(stateFile.path, report)) console.warn(warning);
    // As with --seed, the fixtures are the state of a fresh start; a file that holds one keeps it.
    if (fixtures && !report.created) {
      console.warn(
        `lmskit mock: --fixtures ${values.fixtures} not loaded: the state file holds a state already (POST /__admin/fixtures loads them into it)`,
      );
      fixtures = undefined;
    }
    if (!report.created)
      console.log(`state file ${stateFile.path}: loaded, ${report.replayed} command(s) replayed`);
  } catch (error) {
    // One sentence or one paragraph, and the exit code docs/mock.md gives; never a stack trace.
    if (
      !(
        error instanceof StateFileUnusable ||
        error instanceof StateFileDamaged ||
        error instanceof StateFileFromNewerVersion
      )
    )
      throw error;
    console.error(error.message);
    process.exit(error.exitCode);
  }
}

// A shared store: this replica makes the platform's first state there, or joins the one it holds.
let store: PostgresStore | undefined;
if (values.store !== undefined) {
  // Loaded only for a shared store: pg is about a twelfth of a start's CPU.
  const { PostgresStore, StoreFromNewerVersion } = await import('./store/postgres-store.ts');
  try {
    const opened = await PostgresStore.open(values.store, platform);
    store = opened.store;
    if (opened.report.started === 'joined') {
      if (fixtures)
        console.warn(
          `lmskit mock: --fixtures ${values.fixtures} not loaded: the shared store holds a state already (POST /__admin/fixtures loads them into it)`,
        );
      fixtures = undefined;
      console.log(`store ${store.name}: joined, ${opened.report.replayed} command(s) replayed`);
    }
  } catch (error) {
    console.error(`lmskit mock: ${(error as Error).message}`);
    process.exit(error instanceof StoreFromNewerVersion || error instanceof UnknownCommand ? 3 : 1);
  }
}

// The docs site, kept on disk by its inputs' content (docs/README.md): a start whose contracts and
// guides were built before serves it at once.
const docs = docsBuildable() ? mockDocs(fromEnv('LMSKIT_DOCS_CACHE')) : undefined;
const docsKept = (await docs?.built()) ?? false;
// Someone at a terminal will open the docs: build them now, in the background, while the banner is
// read. A mock a test or a script starts (its output not a terminal) builds them only if asked, so
// that a suite of many short-lived mocks spends no CPU on a site nobody opens.
const docsInBackground = docs !== undefined && !docsKept && process.stdout.isTTY === true;

let running: RunningMock;
try {
  running = await startServer({
    docs: docs?.load,
    platform,
    adminToken,
    version,
    limits: { requestsPerMinute: rateLimit },
    counters: store?.limitCounters(),
    deliveryClaims: store?.deliveryClaims(),
    trustProxy,
    journalSize,
    // A shared store keeps the request journal too: any replica lists every replica's requests.
    journalStore: store?.journal.bind(store),
    allowedHosts,
    start: fixtures ? { fixture: fixtures.fixture } : { seed: values['seed-scale'] ? 'scale' : seedName },
    port,
    host: values.host,
    webhookTimeoutMs: webhookTimeout * 1000,
  });
} catch (error) {
  console.error(`cannot listen on ${values.host}:${port}: ${(error as Error).message}`);
  process.exit(1);
}
// Stopping is ready before the banner tells anyone the mock is there.
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
console.log(banner(running.url));
if (docsInBackground)
  docs?.load().then(
    () => console.log(`docs: built, ${running.url}/docs/ is ready`),
    (error: Error) => console.error(`docs: the site could not be built: ${error.message}`),
  );

/**
 * What a newcomer needs, at `base`: the bound port (`--port 0` asks for a free one); listening on
 * every interface, the links name 127.0.0.1, a host the Host check serves (docs/mock.md, Host names
 * and pages).
 */
function banner(base: string): string {
  const demo = platform.tenants.get(DEMO_TENANT) ?? platform.tenants.values().next().value;
  const lines = [
    `lmskit mock ${version} ready`,
    `  Integration REST API (v1)  ${base}/openapi/v1`,
    `  MCP backend API (v2)       ${base}/api/v2`,
    `  Admin API                  ${base}/__admin`,
    '',
    ...(demo
      ? [`  tenant ${demo.id}: X-API-KEY ${demo.siteApiKey}`, `  MCP access: ${mcpAccessNote(demo)}`]
      : []),
    ...liveDemoKeys(platform).map(
      (k) => `  MCP key (${k.scopes.join('+')}, ${k.userApiId}): X-MCP-Key ${k.key}`,
    ),
    ...(fixtures && platform.tenants.size > 1
      ? [
          `  fixtures: ${platform.tenants.size} tenants (GET /__admin/tenants); their MCP keys are those ${values.fixtures} gives`,
        ]
      : fixtures
        ? [`  fixtures: the MCP keys are those ${values.fixtures} gives`]
        : []),
    `  admin token: Authorization: Bearer ${adminToken}`,
    // The token rides in the fragment, which the browser never sends: one click opens the console signed in.
    `  console: ${base}/console/#token=${encodeURIComponent(adminToken)}`,
    !docs
      ? '  docs: not served by the installed package; a clone of the kit builds them (npm run docs)'
      : docsKept
        ? `  docs: ${base}/docs/`
        : `  docs: ${base}/docs/ (${docsInBackground ? 'being built in the background' : 'built on the first visit'}: ${DOCS_BUILD_TIME}, once until the contracts or guides change)`,
    `  state: ${
      store
        ? `shared with every replica of ${store.name}`
        : stateFile
          ? `${stateFile.path}${values.fsync ? ' (every write flushed to disk before its answer, --fsync)' : ''}`
          : 'in memory (use --state-file to keep it)'
    }`,
    '',
    `try: curl -H 'X-API-KEY: ${demo?.siteApiKey ?? '<key>'}' ${base}/openapi/v1/courses`,
  ];
  return lines.join('\n');
}

/**
 * The tenant's MCP tier. Seed 000 (Tenant restrictions (licence)) makes `none` the default, which the
 * demo seed alone departs from, so that its printed keys work: the banner says which it is.
 */
function mcpAccessNote(tenant: { id: string; mcpAccess: string }): string {
  const demoSeed = !fixtures && !values['seed-scale'] && seedName === 'demo';
  if (tenant.mcpAccess === 'full' && demoSeed)
    return "full, the demo's choice (seed 000's default, for a new tenant, is none)";
  if (tenant.mcpAccess === 'none')
    return `none, seed 000's default: every MCP request gets 403 MCP_LICENSE_DISABLED until PATCH /__admin/tenants/${tenant.id} {"mcpAccess": "full"}`;
  return tenant.mcpAccess;
}

function shutdown(signal: string): void {
  console.log(`\n${signal}: shutting down`);
  running.close().then(() => {
    try {
      stateFile?.compact(platform);
    } catch (error) {
      console.warn(
        `state file ${stateFile?.path}: no fresh snapshot at shutdown (${(error as Error).message}); the journal holds every write.`,
      );
    }
    stateFile?.close();
    (store?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  });
}
