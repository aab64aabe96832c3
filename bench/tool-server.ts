// `node --import tsx bench/tool-server.ts`: the tool server's part of the benchmark alone, in seconds
// rather than minutes — `tools/call get_course` over Streamable HTTP against the same backend call made
// directly (`GET /api/v2/courses/1`), interleaved rounds as in bench/run.ts. With
// `BASELINE=<another checkout>` that checkout's tool server runs in the same rounds too: before and
// after on the same machine at the same moment, which a shared machine needs. Besides latency it
// reports the CPU time each call costs the tool server's process, which other load on the machine
// barely moves. Prints medians with min–max. BENCH_ROUNDS, BENCH_SECONDS, BENCH_CONNECTIONS.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../lib/net.ts';
import { ROOT } from '../lib/paths.ts';
import { demoMcpKey } from '../mock/seed/demo.ts';
import { LoadGenerator, type LoadSummary } from './load.ts';
import { CPUS, loadAverage, pin } from './machine.ts';
import { lmskitNodeFlags } from './node-flags.ts';
import { round2, roundRatios, spread } from './stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const BASELINE = process.env.BASELINE;
const MCP = { 'x-mcp-key': demoMcpKey('write') };
const base = (p: number) => `http://127.0.0.1:${p}`;

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/** CPU time a process has used, in ms (Linux: utime + stime of /proc/<pid>/stat, 100 ticks a second). */
function cpuMs(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Starts a server pinned to the servers' cores; resolves once `readyUrl` answers below 500. */
async function start(args: string[], readyUrl: string, headers: Record<string, string> = {}) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  if (CPUS && child.pid) pin(child.pid, CPUS.server);
  let stderr = '';
  child.stderr?.on('data', (c) => (stderr += c));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${stderr}`);
    if (
      await fetch(readyUrl, { headers }).then(
        (r) => r.status < 500,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const mockPort = await freePort();
const mock = await start(
  [
    ...lmskitNodeFlags(),
    join(ROOT, 'bin', 'lmskit.js'),
    'mock',
    '--port',
    String(mockPort),
    '--rate-limit',
    '0',
    '--frozen-clock',
  ],
  `${base(mockPort)}/api/v2/courses/1`,
  MCP,
);

interface Contender {
  /** The tool server's port; none for the direct call. */
  port: number | null;
  /** The process whose CPU time per call is reported. */
  process: ChildProcess;
}
const contenders: Record<string, Contender> = { direct: { port: null, process: mock } };
for (const [name, root] of [['tool', ROOT], ...(BASELINE ? [['baseline', BASELINE]] : [])]) {
  const port = await freePort();
  const lmskit = join(root as string, 'bin', 'lmskit.js');
  const args = [
    ...lmskitNodeFlags(root as string),
    lmskit,
    'mcp',
    '--http',
    '--port',
    String(port),
    '--base-url',
    base(mockPort),
  ];
  contenders[name as string] = { port, process: await start(args, `${base(port)}/mcp`) };
}
// The baseline of bench/run.ts's targets: a bare Express proxy making the same backend call.
const proxyPort = await freePort();
contenders.proxy = {
  port: proxyPort,
  process: await start(
    [
      '--import',
      'tsx',
      join(ROOT, 'bench', 'bare-proxy.ts'),
      String(proxyPort),
      base(mockPort),
      MCP['x-mcp-key'],
    ],
    `${base(proxyPort)}/mcp`,
  ),
};

const client = new LoadGenerator(CPUS?.client ?? null);
const toolCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_course', arguments: { courseId: 1 } },
});
const job = ({ port }: Contender, seconds: number) =>
  port === null
    ? {
        url: `${base(mockPort)}/api/v2/courses/1`,
        method: 'GET' as const,
        headers: MCP,
        connections: CONNECTIONS,
        seconds,
      }
    : {
        url: `${base(port)}/mcp`,
        method: 'POST' as const,
        headers: { ...MCP, accept: 'application/json, text/event-stream' },
        body: toolCall,
        connections: CONNECTIONS,
        seconds,
      };

console.log(
  `load average ${loadAverage().join(' ')}; ${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections`,
);
const names = Object.keys(contenders);
for (const name of names) await client.run(job(contenders[name] as Contender, 0.5)); // warm-up: JIT, caches
const runs: Record<string, (LoadSummary & { cpuMsPerCall: number })[]> = Object.fromEntries(
  names.map((n) => [n, []]),
);
for (let round = 0; round < ROUNDS; round++)
  // Odd rounds in reverse order, so a machine getting busier or quieter favours no one.
  for (const name of round % 2 ? [...names].reverse() : names) {
    const contender = contenders[name] as Contender;
    const cpuBefore = cpuMs(contender.process);
    const summary = await client.run(job(contender, SECONDS));
    const cpuMsPerCall = (cpuMs(contender.process) - cpuBefore) / Math.max(summary.requests, 1);
    runs[name]?.push({ ...summary, cpuMsPerCall });
  }
client.stop();

const round1 = (x: number) => Math.round(x * 10) / 10;
const show = (xs: number[], digits = round1) => {
  const s = spread(xs);
  return `${digits(s.median)} (${digits(s.min)}–${digits(s.max)})`;
};
for (const name of names) {
  const r = runs[name] ?? [];
  const bad = r.reduce((n, x) => n + x.non2xx + x.errors + (x.requests ? 0 : 1), 0);
  console.log(
    `${name.padEnd(8)} p50 ${show(r.map((x) => x.p50))} ms, p99 ${show(r.map((x) => x.p99))} ms, ` +
      `${show(
        r.map((x) => x.reqPerSec),
        Math.round,
      )} req/s, CPU ${show(
        r.map((x) => x.cpuMsPerCall),
        (x) => Math.round(x * 100) / 100,
      )} ms/call${bad ? `, ${bad} non-2xx/errors` : ''}`,
  );
}
// What bench/run.ts's targets judge: the tool server's req/s and p99 over the bare proxy's, within
// a round; and, shown beside them, its req/s over the direct call's.
const within = (over: string, f: (x: LoadSummary) => number) =>
  show(roundRatios(runs.tool ?? [], runs[over] ?? [], f), round2);
console.log(
  `tool/proxy within a round: req/s ${within('proxy', (x) => x.reqPerSec)}×, p99 ${within('proxy', (x) => x.p99)}×; ` +
    `tool/direct req/s ${within('direct', (x) => x.reqPerSec)}×`,
);
console.log(`load average ${loadAverage().join(' ')}`);
process.exit(0);
