// `npm run bench`: bounded load with autocannon on loopback, each scenario side by side
// with a bare Express route answering the same bytes and, for the v1 reads, Prism mocking the same
// spec; plus start-to-ready times, resident memory at scale, and the conformance suite's duration.
// Writes bench/results.json and bench/RESULTS.md. Targets are benchmark targets, not tests.
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ALL_CHECKS } from '../conformance/checks/index.ts';
import { runChecks } from '../conformance/runner.ts';
import { freePort } from '../lib/net.ts';
import { bundlePath, ROOT } from '../lib/paths.ts';
import { DEMO_SITE_API_KEY, demoMcpKey } from '../mock/seed/demo.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const SCALE = 'users=100000,courses=1000,assignments=500000';
const ADMIN = 'bench-admin';
const KEY = { 'x-api-key': DEMO_SITE_API_KEY };
const MCP = { 'x-mcp-key': demoMcpKey('write') };

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** Starts a process and resolves with it once `url` answers (or its output says ready). */
async function start(
  command: string,
  args: string[],
  readyUrl: string,
): Promise<{ child: ChildProcess; readyMs: number }> {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (c) => (stderr += c));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited: ${stderr}`);
    const ok = await fetch(readyUrl, { headers: KEY }).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return { child, readyMs: performance.now() - t0 };
    await new Promise((r) => setTimeout(r, 20));
  }
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

interface Load {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(
  url: string,
  options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: () => string } = {},
): Promise<Load> {
  const run = (duration: number) =>
    autocannon({
      url,
      method: options.method ?? 'GET',
      headers: { ...options.headers, ...(options.body ? { 'content-type': 'application/json' } : {}) },
      connections: CONNECTIONS,
      duration,
      ...(options.body
        ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: options.body?.() }) }] }
        : {}),
    } as autocannon.Options);
  await run(1); // warm-up: JIT, caches, sockets
  const r = await run(DURATION);
  return {
    reqPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
  };
}

const ports = {
  demo: await freePort(),
  scale: await freePort(),
  bare: await freePort(),
  prism: await freePort(),
};
const base = (p: number) => `http://127.0.0.1:${p}`;
const lmskit = join(ROOT, 'bin', 'lmskit.js');
const mockArgs = (port: number, extra: string[]) => [
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

console.log('starting the mock (demo seed), the mock (scale seed), Prism (static mock of openapi/v1)...');
await start(process.execPath, mockArgs(ports.demo, []), `${base(ports.demo)}/__admin/health`);
const scale = await start(
  process.execPath,
  mockArgs(ports.scale, ['--seed-scale', SCALE]),
  `${base(ports.scale)}/__admin/health`,
);
const scaleRssMb = rssMb(scale.child.pid as number);
await start(
  join(ROOT, 'node_modules', '.bin', 'prism'),
  ['mock', bundlePath('v1'), '-p', String(ports.prism), '-h', '127.0.0.1', '-v', 'silent'],
  `${base(ports.prism)}/courses/1`,
);

let created = 0;
const newUser = () =>
  JSON.stringify({
    name: 'Bench User',
    email: `bench${process.pid}-${created++}@example.test`,
    password: 'bench-password',
    roleAlias: 'learner',
  });

interface Scenario {
  name: string;
  server: 'demo' | 'scale';
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: () => string;
  /** Path of the same operation on Prism (relative to the spec's server), for the v1 reads. */
  prism?: string;
  read: boolean;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'v1 course detail',
    server: 'demo',
    method: 'GET',
    path: '/openapi/v1/courses/1',
    headers: KEY,
    prism: '/courses/1',
    read: true,
  },
  {
    name: 'v1 user assignments',
    server: 'demo',
    method: 'GET',
    path: '/openapi/v1/users/lena/assignments',
    headers: KEY,
    prism: '/users/lena/assignments',
    read: true,
  },
  {
    name: 'v1 create user (write)',
    server: 'demo',
    method: 'POST',
    path: '/openapi/v1/users',
    headers: KEY,
    body: newUser,
    read: false,
  },
  {
    name: 'v2 capabilities (key hashing)',
    server: 'demo',
    method: 'GET',
    path: '/api/v2/mcp/capabilities',
    headers: MCP,
    read: true,
  },
  {
    name: 'v2 user search, 100 000 users',
    server: 'scale',
    method: 'GET',
    path: '/api/v2/users?query=greta&limit=20',
    headers: MCP,
    read: true,
  },
  {
    name: 'v1 /statistics at scale',
    server: 'scale',
    method: 'GET',
    path: '/openapi/v1/statistics',
    headers: KEY,
    read: true,
  },
];

// The bare routes answer the bytes the mock answered, captured once.
const routes = [];
for (const s of SCENARIOS) {
  const r = await fetch(`${base(ports[s.server])}${s.path}`, {
    method: s.method,
    headers: { ...s.headers, 'content-type': 'application/json' },
    ...(s.body ? { body: s.body() } : {}),
  });
  routes.push({
    method: s.method,
    path: s.path.split('?')[0],
    status: r.status,
    contentType: r.headers.get('content-type') ?? 'application/json',
    body: await r.text(),
  });
}
const routesFile = join(tmpdir(), `lmskit-bench-routes-${process.pid}.json`);
writeFileSync(routesFile, JSON.stringify(routes));
await start(
  process.execPath,
  ['--import', 'tsx', join(ROOT, 'bench', 'bare-server.ts'), routesFile, String(ports.bare)],
  `${base(ports.bare)}${SCENARIOS[0]?.path}`,
);

const rows: { scenario: string; mock: Load; bare: Load; prism?: Load }[] = [];
for (const s of SCENARIOS) {
  process.stdout.write(`${s.name}: mock`);
  const mock = await load(`${base(ports[s.server])}${s.path}`, {
    method: s.method,
    headers: s.headers,
    body: s.body,
  });
  process.stdout.write(', bare Express');
  const bare = await load(`${base(ports.bare)}${s.path}`, {
    method: s.method,
    headers: s.headers,
    body: s.body,
  });
  let prism: Load | undefined;
  if (s.prism) {
    process.stdout.write(', Prism');
    prism = await load(`${base(ports.prism)}${s.prism}`, { headers: s.headers });
  }
  console.log(
    ` — ${mock.reqPerSec} req/s (bare ${bare.reqPerSec}${prism ? `, Prism ${prism.reqPerSec}` : ''})`,
  );
  rows.push({ scenario: s.name, mock, bare, ...(prism ? { prism } : {}) });
}

// Start to ready once more per seed, now that nothing else runs (the first starts overlapped).
for (const c of children.splice(0)) c.kill('SIGKILL');
const readyOn = async (extra: string[]) => {
  const port = await freePort();
  const started = await start(process.execPath, mockArgs(port, extra), `${base(port)}/__admin/health`);
  return { ...started, port };
};
const demoStart = await readyOn([]);
const scaleStart = await readyOn(['--seed-scale', SCALE]);
const scaleRss = Math.max(scaleRssMb, rssMb(scaleStart.child.pid as number));

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

// Targets and whether they hold.
const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const targets: { target: string; measured: string; met: boolean }[] = [];
for (const r of rows) {
  if (r.mock.non2xx || r.mock.errors) {
    targets.push({
      target: `${r.scenario}: every answer 2xx`,
      measured: `${r.mock.non2xx} non-2xx, ${r.mock.errors} errors`,
      met: false,
    });
  }
}
for (const r of rows.filter((x) => SCENARIOS.find((s) => s.name === x.scenario)?.read)) {
  targets.push({
    target: `${r.scenario}: ≥ 0.75× bare Express req/s`,
    measured: `${ratio(r.mock.reqPerSec, r.bare.reqPerSec)}×`,
    met: r.mock.reqPerSec >= 0.75 * r.bare.reqPerSec,
  });
  targets.push({
    target: `${r.scenario}: p99 ≤ 2× bare Express p99`,
    measured: `${r.mock.p99} ms vs ${r.bare.p99} ms`,
    met: r.mock.p99 <= 2 * Math.max(r.bare.p99, 1),
  });
  if (r.prism)
    targets.push({
      target: `${r.scenario}: ahead of Prism (logging silenced)`,
      measured: `${ratio(r.mock.reqPerSec, r.prism.reqPerSec)}× Prism`,
      met: r.mock.reqPerSec > r.prism.reqPerSec,
    });
}
const at = (name: string) => rows.find((r) => r.scenario === name) as (typeof rows)[number];
targets.push(
  {
    target: '/statistics p50 at the scale seed < 5 ms',
    measured: `${at('v1 /statistics at scale').mock.p50} ms`,
    met: at('v1 /statistics at scale').mock.p50 < 5,
  },
  {
    target: 'user search p50 at the scale seed < 20 ms',
    measured: `${at('v2 user search, 100 000 users').mock.p50} ms`,
    met: at('v2 user search, 100 000 users').mock.p50 < 20,
  },
  {
    target: 'start to ready, demo seed < 1 s',
    measured: `${Math.round(demoStart.readyMs)} ms`,
    met: demoStart.readyMs < 1000,
  },
  {
    target: 'start to ready, scale seed < 10 s',
    measured: `${Math.round(scaleStart.readyMs)} ms`,
    met: scaleStart.readyMs < 10_000,
  },
  {
    target: 'resident memory at the scale seed < 512 MB',
    measured: `${Math.round(scaleRss)} MB`,
    met: scaleRss < 512,
  },
  {
    target: 'full conformance suite against the mock < 60 s',
    measured: `${(conformanceMs / 1000).toFixed(1)} s (${conformance.results.length} checks, ${conformance.results.filter((r) => r.status === 'fail').length} failed)`,
    met: conformanceMs < 60_000,
  },
);

const version = (pkg: string) =>
  JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version as string;
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGb: Math.round(totalmem() / 2 ** 30),
  freeMemoryGb: Math.round(freemem() / 2 ** 30),
  os: execSync('uname -sr').toString().trim(),
};
const versions = {
  node: process.version,
  lmskit: version('../'),
  express: version('express'),
  autocannon: version('autocannon'),
  prism: version('@stoplight/prism-cli'),
};
const results = {
  date: new Date().toISOString(),
  machine,
  versions,
  settings: { durationSeconds: DURATION, connections: CONNECTIONS, scale: SCALE },
  scenarios: rows,
  startup: { demoMs: Math.round(demoStart.readyMs), scaleMs: Math.round(scaleStart.readyMs) },
  scaleRssMb: Math.round(scaleRss),
  conformance: { ms: Math.round(conformanceMs), checks: conformance.results.length },
  targets,
};
writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

const table = [
  '| scenario | server | req/s | p50 ms | p99 ms | × bare | × Prism |',
  '|---|---|---:|---:|---:|---:|---:|',
  ...rows.flatMap((r) => [
    `| ${r.scenario} | lmskit mock | ${r.mock.reqPerSec} | ${r.mock.p50} | ${r.mock.p99} | ${ratio(r.mock.reqPerSec, r.bare.reqPerSec)} | ${r.prism ? ratio(r.mock.reqPerSec, r.prism.reqPerSec) : ''} |`,
    `| | bare Express | ${r.bare.reqPerSec} | ${r.bare.p50} | ${r.bare.p99} | 1 | |`,
    ...(r.prism
      ? [
          `| | Prism ${versions.prism} (static, silent) | ${r.prism.reqPerSec} | ${r.prism.p50} | ${r.prism.p99} | ${ratio(r.prism.reqPerSec, r.bare.reqPerSec)} | 1 |`,
        ]
      : []),
  ]),
];
const targetTable = [
  '| target | measured | met |',
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

Written by \`npm run bench\` on ${results.date.slice(0, 10)}: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGb} GiB, ${machine.os};
Node ${versions.node}, Express ${versions.express}, autocannon ${versions.autocannon}, Prism ${versions.prism}.
Each run: ${CONNECTIONS} connections, ${DURATION} s after a 1 s warm-up, on loopback; the server in its own
process, the client in the bench's. Scale seed: \`${SCALE}\`.

${table.join('\n')}

Start to ready: ${results.startup.demoMs} ms with the demo seed, ${results.startup.scaleMs} ms with the scale seed.
Resident memory at the scale seed: ${results.scaleRssMb} MB. The conformance suite (${results.conformance.checks} checks) ran in ${(conformanceMs / 1000).toFixed(1)} s.

## Targets

${targetTable.join('\n')}

${previous || '## Findings\n\n(none recorded yet)\n'}`;
writeFileSync(join(ROOT, 'bench', 'RESULTS.md'), md);
console.log(
  `\n${table.join('\n')}\n\n${targetTable.join('\n')}\n\nwrote bench/results.json and bench/RESULTS.md`,
);
process.exit(0);
