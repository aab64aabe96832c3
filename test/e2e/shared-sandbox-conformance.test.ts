// The conformance suite, run as a vendor runs it (docs/conformance.md, Run it: the `lmskit conformance`
// command with every key, flag and opt-in), against a shared sandbox: three `lmskit mock --store
// postgres://…` replicas over one real PostgreSQL (test/postgres.ts), behind a round-robin balancer
// (./round-robin.ts) that sends each request to the next replica, and the tool server (`lmskit mcp
// --http`) in front of that balancer. docs/mock.md, Shared sandbox, promises that the replicas behave
// as one platform (docs/adr-0007-shared-sandbox.md): the complete run must pass as it does against one
// mock (test/conformance/suite.test.ts). Of what the replicas still keep each in its own memory
// (docs/mock.md, Shared sandbox, "What is one, and what is not yet"), the suite meets the per-key rate
// limit and the failed-login counts (--probe-limits); it uses no admin API (faults, the journal) and
// registers no webhook receiver. A run that does not pass names the checks, their reasons and what
// each replica counted by itself.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonReport } from '../../conformance/reporters/json.ts';
import { ADMIN_CHAIN, type DeploymentKeys, prepareDeployment } from '../conformance/deployment.ts';
import { startPostgres, type TestPostgres } from '../postgres.ts';
import { freePort, type RunningProcess, runLmskit, startLmskit } from './process.ts';
import { type RoundRobin, startRoundRobin } from './round-robin.ts';

const TOKEN = 'shared-sandbox-admin-token';
/** How long the whole run may take before it is taken for a hang (10-30 s on a quiet machine). */
const RUN_GUARD_MS = 280_000;

let db: TestPostgres;
const replicas: RunningProcess[] = [];
let balancer: RoundRobin;
let toolServer: RunningProcess;
let mcpUrl = '';
let folder = '';
const bases: string[] = [];

beforeAll(async () => {
  db = await startPostgres();
  const store = await db.database();
  // One after another: the first makes the store from its seed, the others join it. The options of a
  // complete run against one mock (test/conformance/suite.test.ts): a frozen clock, and a rate limit
  // of 600 requests per key per minute, which the run's own traffic stays under and --probe-limits
  // reaches within its budget; the failed-login limit is the mock's default, 20 per 5 minutes.
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    replicas.push(
      await startLmskit(
        [
          'mock',
          '--port',
          String(port),
          '--store',
          store,
          '--admin-token',
          TOKEN,
          '--frozen-clock',
          '--rate-limit',
          '600',
        ],
        /try: curl/,
      ),
    );
    bases.push(`http://127.0.0.1:${port}`);
  }
  balancer = await startRoundRobin(bases);
  // The directory the suite writes and the tool server reads (--upload-dir, --upload-root).
  folder = mkdtempSync(join(tmpdir(), 'lmskit-shared-conformance-'));
  const port = await freePort();
  toolServer = await startLmskit(
    ['mcp', '--http', '--port', String(port), '--base-url', balancer.url, '--upload-root', folder],
    /Streamable HTTP/,
  );
  mcpUrl = `http://127.0.0.1:${port}/mcp`;
});

afterAll(async () => {
  const running = [...replicas, ...(toolServer ? [toolServer] : [])];
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  await balancer?.close();
  await db?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The admin API through the balancer, as a vendor scripts it (docs/conformance.md, Against the mock). */
async function admin(path: string, init: { method?: string; json?: unknown } = {}) {
  const response = await fetch(`${balancer.url}/__admin${path}`, {
    method: init.method ?? 'GET',
    signal: AbortSignal.timeout(60_000),
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const text = await response.text();
  // The preparation must hold, or the run's verdicts would be about a half-made deployment.
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} /__admin${path}: ${response.status} ${text}`);
  const body: any = text ? JSON.parse(text) : undefined;
  return { status: response.status, body, headers: response.headers };
}

/**
 * What one replica counts by itself (docs/mock.md, Shared sandbox, "What is one, and what is not
 * yet"), for the message of a run that did not pass: the requests each key's rate-limit bucket holds
 * (GET /__admin/tenants/demo/limits), and whether this address is locked out by its failed-login
 * limit (a valid key refused with 429 MCP_AUTH_RATE_LIMITED; a valid key is no failed login).
 */
async function replicaLocal(base: string, index: number, key: string): Promise<string> {
  const headers = { authorization: `Bearer ${TOKEN}` };
  const limits = (await (await fetch(`${base}/__admin/tenants/demo/limits`, { headers })).json()) as {
    requestsPerMinute: number;
    keys: { keyId: string; requestsInWindow: number; aiCallsToday: number }[];
  };
  const held = limits.keys
    .filter((k) => k.requestsInWindow > 0)
    .map((k) => `${k.keyId} ${k.requestsInWindow}/${limits.requestsPerMinute}`);
  const probe = await fetch(`${base}/api/v2/mcp/capabilities`, { headers: { 'x-mcp-key': key } });
  const locked = probe.status === 429 && (await probe.text()).includes('MCP_AUTH_RATE_LIMITED');
  return `  replica ${index + 1} (${base}): rate-limit buckets ${held.join(', ') || 'empty'}; this address ${locked ? 'locked out' : 'not locked out'} by the failed-login limit`;
}

/** Every flag and opt-in `lmskit conformance` has (docs/conformance.md, Run it). */
const commandLine = (keys: DeploymentKeys, report: string) => [
  'conformance',
  '--base-url',
  balancer.url,
  '--api-key',
  keys.site,
  '--mcp-key',
  keys.read,
  '--mcp-key',
  keys.write,
  ...Object.entries(keys.roles).flatMap(([role, key]) => ['--role-key', `${role}=${key}`]),
  '--mcp-url',
  mcpUrl,
  '--allow-writes',
  '--expert-user',
  'otto',
  '--chain',
  String(ADMIN_CHAIN),
  ...Object.entries(keys.tenants).flatMap(([state, key]) => ['--tenant-key', `${state}=${key}`]),
  '--revoked-key',
  keys.revoked,
  '--upload-dir',
  folder,
  '--probe-limits',
  '--report',
  `json=${report}`,
];

describe('the conformance suite against three replicas of one shared sandbox behind a round-robin balancer (docs/mock.md, Shared sandbox)', () => {
  let keys: DeploymentKeys;
  let report: JsonReport;
  let code: number | null;
  let output: string;
  beforeAll(async () => {
    keys = await prepareDeployment({
      admin,
      newKey: async (userId, scopes) =>
        (await admin('/tenants/demo/mcp-keys', { method: 'POST', json: { userId, scopes } })).body,
    });
    const file = join(folder, 'conformance.json');
    ({ code, output } = await runLmskit(commandLine(keys, file), {}, { killAfterMs: RUN_GUARD_MS }));
    if (!existsSync(file)) throw new Error(`no report written (exit code ${code}):\n${output}`);
    report = JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
  }, RUN_GUARD_MS + 60_000);

  it('a complete run with every opt-in passes: no MUST fails, none is left unjudged', async () => {
    const notPassed = report.results
      .filter((r) => r.level === 'MUST' && r.status !== 'pass')
      .map((r) => `${r.id} ${r.status}: ${r.reason}`);
    const should = report.results
      .filter((r) => r.level === 'SHOULD' && r.status === 'fail')
      .map((r) => `${r.id}: ${r.reason}`);
    const story = [
      `requests per replica through the balancer: ${balancer.served.join(', ')}`,
      `spent: ${JSON.stringify(report.spent)}`,
      ...(report.notes.length ? ['notes:', ...report.notes] : []),
      ...(should.length ? ['SHOULD failures:', ...should] : []),
      'what each replica holds in its own memory after the run:',
      ...(await Promise.all(bases.map((base, i) => replicaLocal(base, i, keys.write)))),
    ].join('\n');
    expect(notPassed, `MUST requirements not passed\n${story}`).toEqual([]);
    expect(report.outcome).toBe('passed');
    expect(code, output).toBe(0);
  });

  // The failed-login probe stops at its first 429, which a limit counted per replica also gives, only
  // later (three replicas: about three times the 20 failures). The lockout it ends with is the
  // sandbox's (docs/conformance.md, Politeness: it "ends the run's requests to /api/v2 from this
  // address"): every replica refuses this address, a valid key too, until the window has room again.
  it('the failed-login lockout the run ended with holds on every replica', async () => {
    const refused = await Promise.all(
      bases.map(async (base) => {
        const answer = await fetch(`${base}/api/v2/mcp/capabilities`, {
          headers: { 'x-mcp-key': keys.read },
        });
        return `${answer.status} ${(await answer.json()).code ?? ''}`.trim();
      }),
    );
    expect(refused).toEqual(bases.map(() => '429 MCP_AUTH_RATE_LIMITED'));
  });
});
