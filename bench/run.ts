// `npm run bench`: the mock side by side with a bare Express route answering the same bytes and,
// for reads, Prism mocking the same contract. One run of a few seconds per server cannot tell a 10 %
// difference from noise, so every comparison interleaves the servers (mock, bare, Prism, mock, bare,
// Prism, …) over ROUNDS rounds at 10 and at 50 connections, and reports the median ratio of each
// round's neighbouring runs with its min–max. The load generator is its own process, pinned apart
// from the servers where the machine has the cores (bench/machine.ts). Targets are on the medians.
// Writes bench/results.json and bench/RESULTS.md; `BENCH_FULL=1` adds the million-user scenarios and
// a 60 s mixed load for memory. The shared sandbox (`--store`, bench/shared.ts) runs last, against a
// PostgreSQL of its own. `BENCH_ONLY=<text>` runs only the scenarios (and the "Shared sandbox" section)
// whose name contains the text, prints their table and writes nothing. Targets are benchmark targets,
// not tests.
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
import { ADMIN, mockArgs } from './mock-command.ts';
import { lmskitNodeFlags } from './node-flags.ts';
import { type Contender, type Row, writeReport } from './report.ts';
import { freshQueries, KEY, MCP, type Scenario, type ServerName, scenariosOf } from './scenarios.ts';
import { measureSharedSandbox, SHARED_NAME, sharedMarkdown, sharedProblems } from './shared.ts';
import { median, round2, spread } from './stats.ts';

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

const SCENARIOS = scenariosOf(FULL);

if (ONLY) SCENARIOS.splice(0, SCENARIOS.length, ...SCENARIOS.filter((s) => s.name.includes(ONLY)));
const sharedOnly = ONLY !== undefined && SHARED_NAME.toLowerCase().includes(ONLY.toLowerCase());
if (!SCENARIOS.length && !sharedOnly)
  throw new Error(`BENCH_ONLY=${ONLY}: no scenario's name contains it, nor "${SHARED_NAME}"`);
console.log(`machine: ${JSON.stringify(describeMachine())}; load average ${loadAtStart.join(' ')}`);
const sharedSettings = {
  full: FULL,
  rounds: FULL ? ROUNDS : Math.min(ROUNDS, 3),
  seconds: SECONDS,
  warmUpSeconds: WARM_UP_SECONDS,
  scale: SCALE,
};
if (sharedOnly) {
  // The shared sandbox alone (BENCH_ONLY=shared): its tables, and nothing written.
  const client = new LoadGenerator(CPUS?.client ?? null);
  const shared = await measureSharedSandbox(client, sharedSettings);
  client.stop();
  const problems = sharedProblems(shared);
  console.log(
    `\nBENCH_ONLY=${ONLY}; load average now ${loadAverage().join(' ')}\n\n${sharedMarkdown(shared)}${problems.length ? `\nNot every answer was 2xx: ${problems.join('; ')}` : ''}`,
  );
  if (!SCENARIOS.length) process.exit(0);
}
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

// The shared sandbox (bench/shared.ts), with nothing else of the bench running: one replica against
// the plain mock, 1–3 replicas of one store, and a replica joining 100 000 users.
for (const c of children.splice(0)) c.kill('SIGKILL');
const shared = await measureSharedSandbox(client, sharedSettings);
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

writeReport({
  settings: { FULL, ROUNDS, SECONDS, CONNECTIONS, SCALE, MILLION, SOAK_SECONDS, TOOL_WARM_UP_SECONDS },
  SCENARIOS,
  rows,
  toolRuns,
  demoStart,
  scaleStart,
  millionStart,
  scaleRss,
  millionRss,
  idleRss,
  afterLoadRss,
  soak,
  conformance,
  conformanceMs,
  shared,
  startedAt,
  loadAtStart,
  loadAtEnd,
});
process.exit(0);
