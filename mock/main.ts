// `npm start` / `npx lmskit mock`: the stateful mock on one port, with the banner a newcomer needs.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { parseCommandLine, portOf, usageError } from '../lib/cli.ts';
import { expressServer } from '../lib/express-server.ts';
import { ROOT } from '../lib/paths.ts';
import { createApp, trustProxySetting } from './app.ts';
import { VirtualClock } from './domain/clock.ts';
import { Platform } from './domain/platform.ts';
import { buildDocsInChildProcess, docsBuildable } from './http/docs.ts';
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE } from './http/journal.ts';
import { keepIdleConnections } from './http/keep-alive.ts';
import { answerClientErrors } from './http/refusals.ts';
import { DEMO_TENANT, liveDemoKeys, START } from './seed/demo.ts';
import { loadSeed, SEEDS } from './seed/index.ts';
import { parseScale, scaleTenant } from './seed/scale.ts';
import { openWarnings, StateFile, StateFileDamaged, StateFileUnusable } from './store/state-file.ts';
import { WebhookDispatcher } from './webhooks/dispatcher.ts';

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
  --admin-token T     bearer token of /__admin (LMSKIT_ADMIN_TOKEN, default: random, printed)
  --state-file F      keep the state in F across restarts (LMSKIT_STATE_FILE, default: in memory)
  --recover           start from the readable part of a damaged state file (the file is kept aside)
  --seed NAME         seed of a fresh state: ${Object.keys(SEEDS).join(', ')} (LMSKIT_SEED, default demo)
  --seed-scale SPEC   a seed of the given size instead: users=100000,courses=1000,assignments=500000
  --frozen-clock      the virtual clock moves only when advanced through /__admin
  --rate-limit N      /api/v2 requests per MCP key per minute (LMSKIT_RATE_LIMIT, default 120; 0 = off)
  --journal-size N    requests the request journal keeps, 1 to 100000 (LMSKIT_JOURNAL_SIZE, default 1000)
  --webhook-timeout S seconds a webhook receiver has to answer, 1 to 600 (LMSKIT_WEBHOOK_TIMEOUT, default 5)
  --trust-proxy LIST  peers whose X-Forwarded-For names the client, for the failed-login limit per client
                      (LMSKIT_TRUST_PROXY: addresses, subnets, loopback or none; default loopback)
`;

const values = parseCommandLine(
  {
    port: { type: 'string', default: process.env.LMSKIT_PORT ?? '4010' },
    host: { type: 'string', default: process.env.LMSKIT_HOST ?? '127.0.0.1' },
    'admin-token': { type: 'string', default: process.env.LMSKIT_ADMIN_TOKEN },
    'state-file': { type: 'string', default: process.env.LMSKIT_STATE_FILE },
    recover: { type: 'boolean', default: false },
    seed: { type: 'string', default: process.env.LMSKIT_SEED ?? 'demo' },
    'seed-scale': { type: 'string' },
    'frozen-clock': { type: 'boolean', default: false },
    'rate-limit': { type: 'string', default: process.env.LMSKIT_RATE_LIMIT ?? '120' },
    'trust-proxy': { type: 'string', default: process.env.LMSKIT_TRUST_PROXY ?? 'loopback' },
    'webhook-timeout': { type: 'string', default: process.env.LMSKIT_WEBHOOK_TIMEOUT ?? '5' },
    'journal-size': {
      type: 'string',
      default: process.env.LMSKIT_JOURNAL_SIZE ?? String(DEFAULT_JOURNAL_SIZE),
    },
  },
  HELP,
);
if (!SEEDS[values.seed])
  usageError(`unknown seed ${values.seed}; known: ${Object.keys(SEEDS).join(', ')}`, HELP);
const port = portOf(values.port, HELP);
const rateLimit = Number(values['rate-limit']);
if (!Number.isInteger(rateLimit) || rateLimit < 0)
  usageError(`--rate-limit takes a whole number ≥ 0, not ${values['rate-limit']}`, HELP);
const journalSize = Number(values['journal-size']);
if (!Number.isInteger(journalSize) || journalSize < 1 || journalSize > MAX_JOURNAL_SIZE)
  usageError(
    `--journal-size takes a whole number from 1 to ${MAX_JOURNAL_SIZE}, not ${values['journal-size']}`,
    HELP,
  );
const webhookTimeout = Number(values['webhook-timeout']);
if (!Number.isInteger(webhookTimeout) || webhookTimeout < 1 || webhookTimeout > 600)
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

const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const adminToken = values['admin-token'] || randomBytes(16).toString('hex');
let seeds = loadSeed;
if (values['seed-scale']) {
  let sizes: ReturnType<typeof parseScale>;
  try {
    sizes = parseScale(values['seed-scale']);
  } catch (error) {
    usageError((error as Error).message, HELP);
  }
  seeds = (name) => (name === 'scale' ? { now: START, tenants: [scaleTenant(sizes)] } : loadSeed(name));
}
const seed = seeds(values['seed-scale'] ? 'scale' : values.seed);
const platform = new Platform(new VirtualClock({ start: seed.now, frozen: values['frozen-clock'] }), seeds);
platform.load(seed, true);

const compactEvery =
  process.env.LMSKIT_COMPACT_EVERY === undefined ? undefined : Number(process.env.LMSKIT_COMPACT_EVERY);
if (compactEvery !== undefined && (!Number.isInteger(compactEvery) || compactEvery < 1))
  usageError(`LMSKIT_COMPACT_EVERY takes a whole number ≥ 1, not ${process.env.LMSKIT_COMPACT_EVERY}`, HELP);
const stateFile = values['state-file'] ? new StateFile(values['state-file'], { compactEvery }) : null;
if (stateFile) {
  try {
    const report = stateFile.open(platform, { recover: values.recover });
    for (const warning of openWarnings(stateFile.path, report)) console.warn(warning);
    if (!report.created)
      console.log(`state file ${stateFile.path}: loaded, ${report.replayed} command(s) replayed`);
  } catch (error) {
    // One sentence or one paragraph, and the exit code docs/mock.md gives; never a stack trace.
    if (!(error instanceof StateFileUnusable || error instanceof StateFileDamaged)) throw error;
    console.error(error.message);
    process.exit(error.exitCode);
  }
}

const { app } = createApp({
  docs: docsBuildable() ? buildDocsInChildProcess : undefined,
  platform,
  adminToken,
  version,
  limits: { requestsPerMinute: rateLimit },
  trustProxy,
  journalSize,
});
const dispatcher = new WebhookDispatcher(platform, { timeoutMs: webhookTimeout * 1000 });
dispatcher.start();

const server: Server = expressServer(app).listen(port, values.host, () => {
  // The bound port: `--port 0` asks for a free one.
  const base = `http://${values.host}:${(server.address() as AddressInfo).port}`;
  const demo = platform.tenants.get(DEMO_TENANT);
  const lines = [
    `lmskit mock ${version} ready`,
    `  Integration REST API (v1)  ${base}/openapi/v1`,
    `  MCP backend API (v2)       ${base}/api/v2`,
    `  Admin API                  ${base}/__admin`,
    '',
    ...(demo ? [`  tenant ${demo.id}: X-API-KEY ${demo.siteApiKey}`] : []),
    ...liveDemoKeys(platform).map(
      (k) => `  MCP key (${k.scopes.join('+')}, ${k.userApiId}): X-MCP-Key ${k.key}`,
    ),
    `  admin token: Authorization: Bearer ${adminToken}`,
    // The token rides in the fragment, which the browser never sends: one click opens the console signed in.
    `  console: ${base}/console/#token=${encodeURIComponent(adminToken)}`,
    docsBuildable()
      ? `  docs: ${base}/docs/ (built from the contracts on the first visit, a few seconds)`
      : '  docs: not served by the installed package; a clone of the kit builds them (npm run docs)',
    `  state: ${stateFile ? stateFile.path : 'in memory (use --state-file to keep it)'}`,
    '',
    `try: curl -H 'X-API-KEY: ${demo?.siteApiKey ?? '<key>'}' ${base}/openapi/v1/courses`,
  ];
  console.log(lines.join('\n'));
});
answerClientErrors(server);
keepIdleConnections(server);
server.on('error', (error) => {
  console.error(`cannot listen on ${values.host}:${port}: ${error.message}`);
  process.exit(1);
});

function shutdown(signal: string): void {
  console.log(`\n${signal}: shutting down`);
  dispatcher.stop();
  server.close(() => {
    try {
      stateFile?.compact(platform);
    } catch (error) {
      console.warn(
        `state file ${stateFile?.path}: no fresh snapshot at shutdown (${(error as Error).message}); the journal holds every write.`,
      );
    }
    stateFile?.close();
    process.exit(0);
  });
  server.closeAllConnections();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
