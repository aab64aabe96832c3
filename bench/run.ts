// `npm run bench`: the mock side by side with a bare Express route answering the same bytes and,
// for reads, Prism mocking the same contract. One run of a few seconds per server cannot tell a 10 %
// difference from noise, so every comparison interleaves the servers (mock, bare, Prism, mock, bare,
// Prism, …) over ROUNDS rounds at 10 and at 50 connections, and reports the median ratio of each
// round's neighbouring runs with its min–max. The load generator is its own process, pinned apart
// from the servers where the machine has the cores (bench/machine.ts). Targets are on the medians.
// Writes bench/results.json and bench/RESULTS.md; `BENCH_FULL=1` adds the million-user scenarios and
// a 60 s mixed load for memory. `BENCH_ONLY=<text>` runs only the scenarios whose name contains the
// text, prints their table and writes nothing. Targets are benchmark targets, not tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_CHECKS } from '../conformance/checks/index.ts';
import { runChecks } from '../conformance/runner.ts';
import { freePort } from '../lib/net.ts';
import { bundlePath, ROOT } from '../lib/paths.ts';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../mock/seed/demo.ts';
import { LoadGenerator, type LoadSummary } from './load.ts';
import { CPUS, describeMachine, loadAverage, pin } from './machine.ts';
import { lmskitNodeFlags } from './node-flags.ts';
import { median, round2, roundRatios, spread } from './stats.ts';

const FULL = process.env.BENCH_FULL === '1';
const ONLY = process.env.BENCH_ONLY;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 0.6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = [10, 50];
const SCALE = 'users=100000,courses=1000,assignments=500000';
const MILLION = 'users=1000000,courses=10000,assignments=5000000';
const SOAK_SECONDS = 60;
const TOOL_WARM_UP_SECONDS = 4;
const WARM_UP_SECONDS = Number(process.env.BENCH_WARM_UP ?? 1.5);
const ADMIN = 'bench-admin-token';
const KEY = { 'x-api-key': DEMO_SITE_API_KEY };
const MCP = { 'x-mcp-key': demoMcpKey('write') };
const startedAt = new Date();
const loadAtStart = loadAverage();

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** Starts a server process pinned to the servers' cores; resolves once `readyUrl` answers. */
async function start(
  command: string,
  args: string[],
  readyUrl: string,
  headers: Record<string, string> = KEY,
): Promise<{ child: ChildProcess; readyMs: number }> {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  if (CPUS && child.pid) pin(child.pid, CPUS.server);
  let stderr = '';
  child.stderr?.on('data', (c) => (stderr += c));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited: ${stderr}`);
    const ok = await fetch(readyUrl, { headers }).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return { child, readyMs: performance.now() - t0 };
    await new Promise((r) => setTimeout(r, 20));
  }
}

const rssMb = (child: ChildProcess) =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
  );

const base = (p: number) => `http://127.0.0.1:${p}`;
const lmskit = join(ROOT, 'bin', 'lmskit.js');
const mockArgs = (port: number, extra: string[]) => [
  ...lmskitNodeFlags(),
  lmskit,
  'mock',
  '--port',
  String(port),
  '--admin-token',
  ADMIN,
  '--rate-limit',
  '0',
  '--frozen-clock',
  ...extra,
];
const health = (port: number) => `${base(port)}/__admin/health`;

/** A mock on a free port; `extra` are its flags. */
async function mock(extra: string[]) {
  const port = await freePort();
  const started = await start(process.execPath, mockArgs(port, extra), health(port));
  return { port, ...started };
}

/**
 * A mock of the scale seed whose v2 scenarios run with the demo keys: the seed's tenant starts at MCP
 * access `none`, seed 000's default, so the bench turns it to `full` first, as a test would.
 */
async function scaleMock(spec: string) {
  const started = await mock(['--seed-scale', spec]);
  const licence = await fetch(`${base(started.port)}/__admin/tenants/demo`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ mcpAccess: 'full' }),
  });
  if (licence.status !== 200) throw new Error(`mcpAccess full on the scale seed: ${licence.status}`);
  return started;
}

/** Node's arguments to run one of the bench's own TypeScript scripts. */
const benchScript = (file: string, ...args: string[]) => [
  '--import',
  'tsx',
  join(ROOT, 'bench', file),
  ...args,
];

const stateDir = mkdtempSync(join(tmpdir(), 'lmskit-bench-'));
process.on('exit', () => rmSync(stateDir, { recursive: true, force: true }));

type ServerName = 'demo' | 'journal' | 'fsync' | 'scale' | 'million';

interface Scenario {
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
const freshQueries = (users: number) =>
  Array.from(
    { length: 20_000 },
    (_, i) => `query=${['weber', 'rossi', 'tanaka', 'costa'][i % 4]}${(i * 7919) % users}&limit=20`,
  );

const SCENARIOS: Scenario[] = [
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
  ...(FULL
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

if (ONLY) SCENARIOS.splice(0, SCENARIOS.length, ...SCENARIOS.filter((s) => s.name.includes(ONLY)));
if (!SCENARIOS.length) throw new Error(`BENCH_ONLY=${ONLY}: no scenario's name contains it`);
console.log(`machine: ${JSON.stringify(describeMachine())}; load average ${loadAtStart.join(' ')}`);
/** With BENCH_ONLY, a server is started only when one of its scenarios runs. */
const needed = (name: ServerName) => !ONLY || SCENARIOS.some((s) => s.server === name);
console.log('starting the mocks and Prism...');
const servers = {
  demo: await mock([]),
  journal: await mock(['--state-file', join(stateDir, 'state.jsonl')]),
  ...(needed('fsync')
    ? { fsync: await mock(['--state-file', join(stateDir, 'fsync.jsonl'), '--fsync']) }
    : {}),
  ...(needed('scale') ? { scale: await scaleMock(SCALE) } : {}),
  ...(FULL && needed('million') ? { million: await scaleMock(MILLION) } : {}),
};
const prismPort = { v1: await freePort(), v2: await freePort() };
for (const api of ['v1', 'v2'] as const) {
  if (ONLY && !SCENARIOS.some((s) => s.prism?.api === api)) continue;
  await start(
    join(ROOT, 'node_modules', '.bin', 'prism'),
    ['mock', bundlePath(api), '-p', String(prismPort[api]), '-h', '127.0.0.1', '-v', 'silent'],
    `${base(prismPort[api])}${api === 'v1' ? '/courses/1' : '/mcp/capabilities'}`,
    api === 'v1' ? KEY : MCP,
  );
}
const scaleServer = (servers as { scale?: { child: ChildProcess } }).scale;
const idleRss = { scale: scaleServer ? rssMb(scaleServer.child) : 0 };

const portOf = (s: ServerName) => (servers as Record<string, { port: number }>)[s]?.port as number;

// The bare routes answer the bytes the mock answered, captured once, each under its own prefix.
const routes = [];
for (const [i, s] of SCENARIOS.entries()) {
  const r = await fetch(`${base(portOf(s.server))}${s.path}`, {
    method: s.method,
    headers: { ...s.headers, 'content-type': 'application/json' },
    ...(s.uniqueBody ? { body: s.uniqueBody.replace('{n}', `capture-${i}`) } : {}),
  });
  routes.push({
    method: s.method,
    path: `/s${i}${s.path.split('?')[0]}`,
    status: r.status,
    contentType: r.headers.get('content-type') ?? 'application/json',
    body: await r.text(),
  });
}
const routesFile = join(stateDir, 'routes.json');
writeFileSync(routesFile, JSON.stringify(routes));
const barePort = await freePort();
const sameServerPort = await freePort();
await start(
  process.execPath,
  benchScript('bare-server.ts', routesFile, String(barePort), String(sameServerPort)),
  `${base(barePort)}${routes[0]?.path}`,
);

const client = new LoadGenerator(CPUS?.client ?? null);
type Contender = 'mock' | 'bare' | 'sameServer' | 'prism';
const urlOf = (s: Scenario, i: number, who: Contender) =>
  who === 'mock'
    ? `${base(portOf(s.server))}${s.path}`
    : who === 'bare' || who === 'sameServer'
      ? `${base(who === 'bare' ? barePort : sameServerPort)}/s${i}${s.path}`
      : `${base(prismPort[s.prism?.api ?? 'v1'])}${s.prism?.path}`;
const jobOf = (s: Scenario, i: number, who: Contender, connections: number, seconds: number) => ({
  url: urlOf(s, i, who),
  method: s.method,
  headers: s.headers,
  uniqueBody: s.uniqueBody,
  paths: s.queries?.map((q) => `${new URL(urlOf(s, i, who)).pathname}?${q}`),
  connections,
  seconds,
});

interface Row {
  scenario: string;
  connections: number;
  runs: Record<Contender, LoadSummary[]>;
}
const rows: Row[] = [];
for (const [i, s] of SCENARIOS.entries()) {
  const contenders: Contender[] = [
    'mock',
    'bare',
    ...(s.sameServer ? (['sameServer'] as const) : []),
    ...(s.prism ? (['prism'] as const) : []),
  ];
  // Warm-up: the mock's request path is long enough that V8 compiles it only after some thousands of
  // requests, while the bare route's is warm almost at once; a short warm-up measured the mock's first
  // scenarios half-compiled. The bare route on the mock's server is the same app in the same process
  // as the bare route, warmed with it.
  for (const who of contenders)
    if (who !== 'sameServer') await client.run(jobOf(s, i, who, 10, WARM_UP_SECONDS));
  for (const connections of CONNECTIONS) {
    const row: Row = {
      scenario: s.name,
      connections,
      runs: { mock: [], bare: [], sameServer: [], prism: [] },
    };
    // Prism and the bare route on the mock's server are compared at 10 connections only, so that
    // the rounds' time goes further (Prism is far behind; the other has no target).
    const here =
      connections === 10 ? contenders : contenders.filter((c) => c !== 'prism' && c !== 'sameServer');
    // Odd rounds run the contenders in reverse order, so a machine getting busier or quieter during
    // the rounds does not always favour the one that runs first.
    for (let round = 0; round < ROUNDS; round++)
      for (const who of round % 2 ? [...here].reverse() : here)
        row.runs[who].push(await client.run(jobOf(s, i, who, connections, SECONDS)));
    rows.push(row);
    const r = spread(row.runs.mock.map((m, k) => m.reqPerSec / (row.runs.bare[k] as LoadSummary).reqPerSec));
    console.log(
      `${s.name}, ${connections} connections: ${round2(r.median)}× bare (${round2(r.min)}–${round2(r.max)})`,
    );
  }
}
const afterLoadRss = { scale: scaleServer ? rssMb(scaleServer.child) : 0 };

if (ONLY) {
  // Only the scenarios asked for: their table, and nothing written (the files hold a whole run).
  const ratioOf = (r: Row) =>
    spread(r.runs.mock.map((m, k) => m.reqPerSec / (r.runs.bare[k] as LoadSummary).reqPerSec));
  const mid = (runs: LoadSummary[], f: (r: LoadSummary) => number) => Math.round(median(runs.map(f)));
  console.log(
    [
      `\nBENCH_ONLY=${ONLY}: ${ROUNDS} rounds of ${SECONDS} s; load average now ${loadAverage().join(' ')}`,
      '| scenario | conn. | mock req/s | bare req/s | mock p50 / p99 ms | × bare (min–max) |',
      '|---|---:|---:|---:|---|---|',
      ...rows.map((r) => {
        const x = ratioOf(r);
        return `| ${r.scenario} | ${r.connections} | ${mid(r.runs.mock, (m) => m.reqPerSec)} | ${mid(r.runs.bare, (m) => m.reqPerSec)} | ${mid(r.runs.mock, (m) => m.p50)} / ${mid(r.runs.mock, (m) => m.p99)} | ${round2(x.median)}× (${round2(x.min)}–${round2(x.max)}) |`;
      }),
    ].join('\n'),
  );
  client.stop();
  process.exit(0);
}

// The tool server's cost: tools/call get_course over Streamable HTTP against GET /api/v2/courses/1
// made directly to the same mock, and against a bare Express proxy making the same backend call
// (bench/bare-proxy.ts), interleaved the same way.
const mcpPort = await freePort();
await start(
  process.execPath,
  [
    ...lmskitNodeFlags(),
    lmskit,
    'mcp',
    '--http',
    '--port',
    String(mcpPort),
    '--base-url',
    base(servers.demo.port),
  ],
  `${base(mcpPort)}/mcp`, // any answer below 500 means it listens
  {},
);
const proxyPort = await freePort();
await start(
  process.execPath,
  benchScript('bare-proxy.ts', String(proxyPort), base(servers.demo.port), MCP['x-mcp-key']),
  `${base(proxyPort)}/mcp`,
  {},
);
const toolCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_course', arguments: { courseId: 1 } },
});
const toolRuns: { direct: LoadSummary[]; tool: LoadSummary[]; proxy: LoadSummary[] } = {
  direct: [],
  tool: [],
  proxy: [],
};
const directCall = (seconds = SECONDS) =>
  client.run({
    url: `${base(servers.demo.port)}/api/v2/courses/1`,
    method: 'GET',
    headers: MCP,
    connections: 10,
    seconds,
  });
const viaTool = (seconds = SECONDS, port = mcpPort) =>
  client.run({
    url: `${base(port)}/mcp`,
    method: 'POST',
    headers: { ...MCP, accept: 'application/json, text/event-stream' },
    body: toolCall,
    connections: 10,
    seconds,
  });
// Warm-up: a fresh tool server answers at a quarter of its speed until a few thousand calls have
// compiled its paths (the SDK, its schemas): about 3 s of calls here, longer than all the rounds.
await viaTool(TOOL_WARM_UP_SECONDS);
await viaTool(TOOL_WARM_UP_SECONDS / 2, proxyPort);
await directCall(TOOL_WARM_UP_SECONDS);
const toolContenders = {
  direct: () => directCall(),
  tool: () => viaTool(),
  proxy: () => viaTool(SECONDS, proxyPort),
};
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.entries(toolContenders);
  for (const [who, run] of round % 2 ? order.reverse() : order)
    toolRuns[who as keyof typeof toolRuns].push(await run());
}
console.log(
  `tools/call get_course: p50 ${median(toolRuns.tool.map((r) => r.p50))} ms, direct ${median(toolRuns.direct.map((r) => r.p50))} ms`,
);

// FULL: 60 s of mixed reads and writes at the 100 000-user seed, for memory that stays put.
let soak: { idleMb: number; afterMb: number; samples: number[] } | null = null;
if (FULL) {
  const fresh = await scaleMock(SCALE);
  const idleMb = rssMb(fresh.child);
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssMb(fresh.child)), 5000);
  const at = (path: string) => `${base(fresh.port)}${path}`;
  await Promise.all([
    client.run({
      url: at('/openapi/v1/statistics'),
      method: 'GET',
      headers: KEY,
      connections: 10,
      seconds: SOAK_SECONDS,
    }),
    client.run({
      url: at('/api/v2/users'),
      method: 'GET',
      headers: MCP,
      paths: freshQueries(100_000).map((q) => `/api/v2/users?${q}`),
      connections: 10,
      seconds: SOAK_SECONDS,
    }),
    // Writes that change users rather than add them: the platform's data stays the same size, so
    // what grows is the mock's own (caches, journal, heap sizing). Each created user adds its record,
    // events and audit entry: state, not overhead (RESULTS.md, Memory under mixed load).
    client.run({
      url: at('/openapi/v1/users/u1'),
      method: 'PATCH',
      headers: KEY,
      paths: Array.from({ length: 1000 }, (_, i) => `/openapi/v1/users/u${i + 1}`),
      uniqueBody: JSON.stringify({ email: 'soak{n}@example.test', occupation: 'Soak' }),
      connections: 5,
      seconds: SOAK_SECONDS,
    }),
  ]);
  clearInterval(sampler);
  soak = { idleMb, afterMb: rssMb(fresh.child), samples };
  fresh.child.kill('SIGKILL');
}
client.stop();

// Start to ready and memory once more per seed, now that nothing else runs.
for (const c of children.splice(0)) c.kill('SIGKILL');
const demoStart = await mock([]);
const scaleStart = await mock(['--seed-scale', SCALE]);
const scaleRss = rssMb(scaleStart.child);
scaleStart.child.kill('SIGKILL');
const millionStart = FULL ? await mock(['--seed-scale', MILLION]) : null;
const millionRss = millionStart ? rssMb(millionStart.child) : 0;
millionStart?.child.kill('SIGKILL');

// The full conformance suite against the mock (demo seed, jobs finishing at once).
await fetch(`${base(demoStart.port)}/__admin/tenants/demo/ai`, {
  method: 'PATCH',
  headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
  body: JSON.stringify({ generationMinSeconds: 0, generationMaxSeconds: 0 }),
});
const t0 = performance.now();
const conformance = await runChecks(ALL_CHECKS, {
  baseUrl: base(demoStart.port),
  apiKey: DEMO_SITE_API_KEY,
  mcpKeys: [demoMcpKey('read'), demoMcpKey('write')],
  allowWrites: true,
  expertUserId: 'otto',
});
const conformanceMs = performance.now() - t0;
for (const c of children.splice(0)) c.kill('SIGKILL');
const loadAtEnd = loadAverage();

// Targets, on the medians.
const ratios = (r: Row, over: Contender) =>
  spread(r.runs.mock.map((m, k) => m.reqPerSec / (r.runs[over][k] as LoadSummary).reqPerSec));
const fmt = (x: { median: number; min: number; max: number }) =>
  `${round2(x.median)}× (${round2(x.min)}–${round2(x.max)})`;
const scenarioOf = (r: Row) => SCENARIOS.find((s) => s.name === r.scenario) as Scenario;
const targets: { target: string; measured: string; met: boolean }[] = [];
for (const r of rows) {
  const bad = Object.entries(r.runs).flatMap(([who, runs]) =>
    runs
      .filter((x) => x.non2xx || x.errors || !x.requests)
      .map((x) => `${who}: ${x.requests} answered, ${x.non2xx} non-2xx, ${x.errors} errors`),
  );
  if (bad.length)
    targets.push({
      target: `${r.scenario}, ${r.connections} conn.: every answer 2xx`,
      measured: bad[0] as string,
      met: false,
    });
}
for (const r of rows) {
  const s = scenarioOf(r);
  const vsBare = ratios(r, 'bare');
  if (s.target !== undefined)
    targets.push({
      target: `${r.scenario}, ${r.connections} conn.: ≥ ${s.target}× bare Express req/s`,
      measured: fmt(vsBare),
      met: vsBare.median >= s.target,
    });
  if (r.runs.prism.length) {
    const vsPrism = ratios(r, 'prism');
    targets.push({
      target: `${r.scenario}, ${r.connections} conn.: ahead of Prism (logging silenced)`,
      measured: `${fmt(vsPrism)} Prism`,
      met: vsPrism.median > 1,
    });
  }
  if (s.p99 && r.connections === 50) {
    const p99 = spread(r.runs.mock.map((m) => m.p99));
    targets.push({
      target: `${r.scenario}: p99 < ${s.p99} ms at 50 connections`,
      measured: `${p99.median} ms (${p99.min}–${p99.max})`,
      met: p99.median < s.p99,
    });
  }
}
const summaryOf = (runs: LoadSummary[]) => ({
  p50: spread(runs.map((r) => r.p50)),
  p99: spread(runs.map((r) => r.p99)),
  reqPerSec: spread(runs.map((r) => r.reqPerSec)),
});
const tool = summaryOf(toolRuns.tool);
const direct = summaryOf(toolRuns.direct);
const proxy = summaryOf(toolRuns.proxy);
// A baseline that failed would make every ratio over it meaningless, so its answers count too.
const toolErrors = Object.values(toolRuns)
  .flat()
  .reduce((n, r) => n + r.non2xx + r.errors + (r.requests ? 0 : 1), 0);
/**
 * The tool server's targets, set from what was measured (bench/RESULTS.md, Findings), as ratios
 * within a round over a bare Express proxy making the same backend call: what MCP adds to proxying.
 * Over the direct call, a ratio measures the backend as much as the tool server (the servers share
 * the cores, so a faster backend lowers it), so it is shown, not judged.
 */
const TOOL_MIN_RATE = 0.7;
const TOOL_MAX_P99 = 2;
const toolRatio = {
  rate: spread(roundRatios(toolRuns.tool, toolRuns.proxy, (r) => r.reqPerSec)),
  p99: spread(roundRatios(toolRuns.tool, toolRuns.proxy, (r) => r.p99)),
  rateOverDirect: spread(roundRatios(toolRuns.tool, toolRuns.direct, (r) => r.reqPerSec)),
};
targets.push(
  {
    target: 'tools/call get_course over Streamable HTTP, the direct call and the proxy: every answer 2xx',
    measured: `${toolErrors} non-2xx, errors or empty runs`,
    met: toolErrors === 0,
  },
  {
    target: `tools/call get_course, 10 conn.: ≥ ${TOOL_MIN_RATE}× the bare proxy's req/s`,
    measured: `${fmt(toolRatio.rate)}; ${Math.round(tool.reqPerSec.median)} vs ${Math.round(proxy.reqPerSec.median)} req/s`,
    met: toolRatio.rate.median >= TOOL_MIN_RATE,
  },
  {
    target: `tools/call get_course, 10 conn.: p99 ≤ ${TOOL_MAX_P99}× the bare proxy's`,
    measured: `${fmt(toolRatio.p99)}; ${tool.p99.median} vs ${proxy.p99.median} ms`,
    met: toolRatio.p99.median <= TOOL_MAX_P99,
  },
  {
    target: 'start to ready, demo seed < 1 s',
    measured: `${Math.round(demoStart.readyMs)} ms`,
    met: demoStart.readyMs < 1000,
  },
  {
    target: 'start to ready, 100 000 users < 10 s',
    measured: `${Math.round(scaleStart.readyMs)} ms`,
    met: scaleStart.readyMs < 10_000,
  },
  {
    target: 'resident memory idle, 100 000 users < 512 MB',
    measured: `${scaleRss} MB`,
    met: scaleRss < 512,
  },
  {
    target: 'resident memory of the 100 000-user mock after its benchmark load ≤ 1.5× idle',
    measured: `${afterLoadRss.scale} MB after, ${idleRss.scale} MB idle`,
    met: afterLoadRss.scale <= 1.5 * idleRss.scale,
  },
  ...(millionStart
    ? [
        {
          target: 'start to ready, 1 000 000 users < 5 s',
          measured: `${Math.round(millionStart.readyMs)} ms`,
          met: millionStart.readyMs < 5000,
        },
        {
          target: 'resident memory idle, 1 000 000 users < 1.2 GB',
          measured: `${millionRss} MB`,
          met: millionRss < 1229,
        },
      ]
    : []),
  ...(soak
    ? [
        {
          target: `resident memory after ${SOAK_SECONDS} s of mixed load, 100 000 users ≤ 1.5× idle`,
          measured: `${soak.afterMb} MB after, ${soak.idleMb} MB idle (samples ${soak.samples.join(', ')})`,
          met: soak.afterMb <= 1.5 * soak.idleMb,
        },
      ]
    : []),
  {
    target: 'full conformance suite against the mock < 60 s',
    measured: `${(conformanceMs / 1000).toFixed(1)} s (${conformance.results.length} checks, ${conformance.results.filter((r) => r.status === 'fail').length} failed)`,
    met: conformanceMs < 60_000,
  },
);

const version = (pkg: string) =>
  JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version as string;
const machine = describeMachine();
const versions = {
  node: process.version,
  express: version('express'),
  autocannon: version('autocannon'),
  prism: version('@stoplight/prism-cli'),
};
const elapsedS = Math.round((Date.now() - startedAt.getTime()) / 1000);
const results = {
  date: startedAt.toISOString(),
  command: `${FULL ? 'BENCH_FULL=1 ' : ''}npm run bench`,
  machine,
  load: { atStart: loadAtStart, atEnd: loadAtEnd },
  versions,
  settings: {
    rounds: ROUNDS,
    secondsPerRun: SECONDS,
    connections: CONNECTIONS,
    scale: SCALE,
    ...(FULL ? { million: MILLION } : {}),
  },
  elapsedS,
  scenarios: rows,
  toolServer: { tool, direct, proxy, ratio: toolRatio },
  startup: {
    demoMs: Math.round(demoStart.readyMs),
    scaleMs: Math.round(scaleStart.readyMs),
    ...(millionStart ? { millionMs: Math.round(millionStart.readyMs) } : {}),
  },
  rssMb: {
    scaleIdle: scaleRss,
    scaleBeforeLoad: idleRss.scale,
    scaleAfterLoad: afterLoadRss.scale,
    ...(FULL ? { million: millionRss, soak } : {}),
  },
  conformance: { ms: Math.round(conformanceMs), checks: conformance.results.length },
  targets,
};
writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

const med = (runs: LoadSummary[], f: (r: LoadSummary) => number) => Math.round(median(runs.map(f)));
const table = [
  "| scenario | conn. | mock req/s | bare req/s | Prism req/s | mock p50 / p99 ms | bare p50 / p99 ms | × bare (min–max) | × Prism (min–max) | × bare on the mock's server (min–max) |",
  '|---|---:|---:|---:|---:|---|---|---|---|---|',
  ...rows.map((r) => {
    const p = r.runs.prism.length ? r.runs.prism : null;
    const same = r.runs.sameServer.length ? fmt(ratios(r, 'sameServer')) : '';
    return `| ${r.scenario} | ${r.connections} | ${med(r.runs.mock, (x) => x.reqPerSec)} | ${med(r.runs.bare, (x) => x.reqPerSec)} | ${p ? med(p, (x) => x.reqPerSec) : ''} | ${med(r.runs.mock, (x) => x.p50)} / ${med(r.runs.mock, (x) => x.p99)} | ${med(r.runs.bare, (x) => x.p50)} / ${med(r.runs.bare, (x) => x.p99)} | ${fmt(ratios(r, 'bare'))} | ${p ? fmt(ratios(r, 'prism')) : ''} | ${same} |`;
  }),
];
const targetTable = [
  '| target | measured (median, min–max) | met |',
  '|---|---|---|',
  ...targets.map((t) => `| ${t.target} | ${t.measured} | ${t.met ? 'yes' : '**no**'} |`),
];
const previous = (() => {
  try {
    const text = readFileSync(join(ROOT, 'bench', 'RESULTS.md'), 'utf8');
    const at = text.indexOf('## Findings');
    return at < 0 ? '' : text.slice(at);
  } catch {
    return '';
  }
})();
const md = `# Benchmark results

Written by \`${results.command}\` on ${results.date.slice(0, 16).replace('T', ' ')} UTC in ${elapsedS} s.

Machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGb} GiB, ${machine.os}; Node ${versions.node},
Express ${versions.express}, autocannon ${versions.autocannon}, Prism ${versions.prism}. Pinning: ${machine.pinning}.
Load average (1, 5, 15 min) at start ${loadAtStart.join(' ')}, at end ${loadAtEnd.join(' ')} — other work on the
machine shares the cores, which is what the interleaved medians are for.

Method: for each scenario and connection count, ${ROUNDS} rounds; in each round the mock, the bare Express route
answering the same bytes and (reads, at 10 connections) Prism run one after the other for ${SECONDS} s each (in
reverse order in odd rounds), after
one warm-up run each. Three scenarios also run, at 10 connections, the same bare route on the mock's own HTTP
server (\`lib/express-server.ts\`: requests built with Express's prototypes); that column has no target. A ratio is the mock's req/s over its neighbour's in the same round; the table gives the
median ratio with its min–max, and the median req/s and latencies. The load generator (autocannon) is its
own process. Scale seed: \`${SCALE}\`${FULL ? `; million-user seed: \`${MILLION}\`` : ''}.

${table.join('\n')}

The tool server: \`tools/call get_course\` over Streamable HTTP (\`lmskit mcp --http\`) against the same backend
call made directly (\`GET /api/v2/courses/1\`) and against a bare Express proxy making that call (\`bench/bare-proxy.ts\`),
10 connections, interleaved over ${ROUNDS} rounds after a ${TOOL_WARM_UP_SECONDS} s warm-up of each: p50 ${tool.p50.median} ms
(${tool.p50.min}–${tool.p50.max}) against ${direct.p50.median} ms direct and ${proxy.p50.median} ms through the proxy, p99 ${tool.p99.median} ms (${tool.p99.min}–${tool.p99.max}) against
${direct.p99.median} and ${proxy.p99.median} ms; ${Math.round(tool.reqPerSec.median)} against ${Math.round(direct.reqPerSec.median)} and ${Math.round(proxy.reqPerSec.median)} req/s. Within a round: ${fmt(toolRatio.rate)} the proxy's
req/s and ${fmt(toolRatio.p99)} its p99; ${fmt(toolRatio.rateOverDirect)} the direct call's req/s.

Start to ready: ${results.startup.demoMs} ms with the demo seed, ${results.startup.scaleMs} ms with 100 000 users${millionStart ? `, ${results.startup.millionMs} ms with 1 000 000 users` : ''}.
Resident memory with 100 000 users: ${scaleRss} MB idle; ${afterLoadRss.scale} MB after its benchmark load (${idleRss.scale} MB before).${FULL ? ` With 1 000 000 users: ${millionRss} MB idle.` : ''}
The conformance suite (${results.conformance.checks} checks) ran in ${(conformanceMs / 1000).toFixed(1)} s.

## Targets

${targetTable.join('\n')}

${previous || '## Findings\n\n(none recorded yet)\n'}`;
writeFileSync(join(ROOT, 'bench', 'RESULTS.md'), md);
console.log(
  `\n${table.join('\n')}\n\n${targetTable.join('\n')}\n\n${elapsedS} s; wrote bench/results.json and bench/RESULTS.md`,
);
process.exit(0);
