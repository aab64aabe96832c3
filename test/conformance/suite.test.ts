// The conformance suite against the real mock: every check runs and passes; every rule of the
// catalogue and every response the contracts document is checked or left out for a stated reason;
// read-only mode changes nothing and says the run is incomplete; the deployment's limits end checks
// as "blocked", never as failures; the reports tell the story. The departures it must catch are in
// mutations.test.ts.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../conformance/checks/index.ts';
import { BUDGET, type ConformanceConfig, contractOf } from '../../conformance/context.ts';
import { coverageMarkdown, ruleCatalogue } from '../../conformance/coverage.ts';
import { toHtml } from '../../conformance/reporters/html.ts';
import { toJunit } from '../../conformance/reporters/junit.ts';
import { summary } from '../../conformance/reporters/terminal.ts';
import { SEED_RULES } from '../../conformance/rules.ts';
import { EXIT_CODES, exitCode, outcomeOf, type RunReport, runChecks } from '../../conformance/runner.ts';
import type { Result } from '../../conformance/types.ts';
import { unprobedResponse } from '../../conformance/unprobed.ts';
import { ROOT } from '../../lib/paths.ts';
import { DEMO_SITE_API_KEY, type Harness, READ_KEY, startHarness, WRITE_KEY } from '../mock/harness.ts';
import { conformanceCommand } from './command.ts';
import { completeConfig, type DeploymentKeys, prepareDeployment, startToolServer } from './deployment.ts';

let h: Harness;
let mcpUrl = '';
let closeMcp: () => void;

beforeAll(async () => {
  // The mock's limits on, for the limit probes of the complete run; a reset forgets their counters.
  h = await startHarness('demo', { requestsPerMinute: 600, failedAuthMax: 20 });
  const toolServer = await startToolServer(h.base);
  mcpUrl = `${toolServer.url}/mcp`;
  closeMcp = toolServer.close;
});
afterAll(async () => {
  closeMcp();
  await h.close();
});

const config = (over: Partial<ConformanceConfig> = {}): ConformanceConfig => ({
  baseUrl: h.base,
  apiKey: DEMO_SITE_API_KEY,
  mcpKeys: [READ_KEY, WRITE_KEY],
  mcpUrl,
  allowWrites: true,
  expertUserId: 'otto',
  pollIntervalMs: 10,
  ...over,
});

/** A fresh demo platform whose generation jobs finish at once (the frozen clock would never let them). */
async function fresh(harness = h): Promise<void> {
  await harness.admin('/reset', { method: 'POST', json: {} });
  await harness.admin('/tenants/demo/ai', {
    method: 'PATCH',
    json: { generationMinSeconds: 0, generationMaxSeconds: 0 },
  });
}

const notPassed = (report: RunReport) =>
  report.results.filter((r) => r.status !== 'pass').map((r) => `${r.id} ${r.status}: ${r.reason}`);

describe('the suite against the mock, with every kind of key, writes, the expert, the tool server and every opt-in', () => {
  let report: RunReport;
  let keys: DeploymentKeys;
  beforeAll(async () => {
    keys = await prepareDeployment(h);
    report = await runChecks(ALL_CHECKS, completeConfig(h.base, keys, { mcpUrl }));
  }, 180_000);

  it('runs and passes every check, MUST and SHOULD, so the outcome is passed and the exit code 0', () => {
    expect(notPassed(report)).toEqual([]);
    expect(report.results.map((r) => r.id)).toEqual(ALL_CHECKS.map((c) => c.id));
    expect(outcomeOf(report)).toBe('passed');
    expect(exitCode(report)).toBe(0);
  });

  it('with the role keys and writes but no opt-in, still passes, and lists what was not opted in', async () => {
    keys = await prepareDeployment(h);
    const partial = await runChecks(
      ALL_CHECKS,
      completeConfig(h.base, keys, { mcpUrl, tenantKeys: {}, revokedKey: undefined, probeLimits: false }),
    );
    expect(outcomeOf(partial)).toBe('passed');
    const skipped = partial.results.filter((r) => r.status === 'skip');
    expect(skipped.length).toBeGreaterThan(0);
    for (const r of skipped) expect(r.optIn, r.id).toMatch(/^--(tenant-key|revoked-key|probe-limits)/);
    expect(summary(partial)).toMatch(
      /not opted in: \d+ MUST requirement\(s\) that need a flag, or do not apply/,
    );
  }, 180_000);

  it('without the role keys, the permission checks do not run and the run is incomplete, naming --role-key', async () => {
    keys = await prepareDeployment(h);
    const partial = await runChecks(ALL_CHECKS, completeConfig(h.base, keys, { mcpUrl, roleKeys: {} }));
    expect(outcomeOf(partial)).toBe('incomplete');
    expect(summary(partial)).toMatch(/no key of a (manager|author|learner) given \(--role-key \w+=KEY\)/);
  }, 180_000);

  it('with --role-key learner=none, passes: the learner checks are not applicable and listed, the per-role checks run with the others', async () => {
    // Seed 000, Resources > MCP key: a key's owner is "the user who created it (an admin)", so a
    // deployment may give no keys to learners at all.
    keys = await prepareDeployment(h);
    const run = await runChecks(
      ALL_CHECKS,
      completeConfig(h.base, keys, { mcpUrl, roleKeys: { ...keys.roles, learner: 'none' } }),
    );
    expect(outcomeOf(run)).toBe('passed');
    const notApplicable = run.results.filter((r) => r.reason?.startsWith('not applicable'));
    expect(notApplicable.map((r) => r.id)).toContain('v2.auth.banned-owner');
    for (const r of notApplicable) {
      expect(r.reason).toBe('not applicable: the deployment gives no keys to learner');
      expect(r.optIn).toBe('--role-key learner=none');
    }
    // The checks that act as every role in turn run with the manager and the author.
    for (const id of ['v2.permission.role-keys.owners', 'mcp.tools.role-keys.act-as-owner'])
      expect(run.results.find((r) => r.id === id)?.status, id).toBe('pass');
    expect(summary(run)).toMatch(/not applicable: the deployment gives no keys to learner/);
  }, 180_000);

  /** Where a check that provokes `status` of an `api` operation belongs, for the message of a missing one. */
  const whereToProbe = (api: 'v1' | 'v2', status: number) =>
    status === 404
      ? `conformance/checks/probes/refusals.ts derives this probe from a path parameter naming a record (an integer or a string id) in openapi/${api}; a target named in the body or query needs an OVERRIDES.${api}['not-found'] entry there`
      : status === 400
        ? `conformance/checks/probes/refusals.ts derives this probe from a path parameter whose documented schema refuses a value (an integer, a pattern, a list) in openapi/${api}; a malformed body or query needs an OVERRIDES.${api}.malformed entry there`
        : status === 422
          ? `an OVERRIDES.${api}.malformed entry in conformance/checks/probes/refusals.ts, or a check in conformance/checks/${api}/`
          : status < 300
            ? `a check in conformance/checks/${api}/ that reads or writes through it`
            : `a check in conformance/checks/${api}/ or conformance/checks/probes/`;

  it('exercises every response the contracts document, or says why not (conformance/unprobed.ts)', () => {
    const covered = new Set(report.covered);
    const missing: string[] = [];
    const stale: string[] = [];
    for (const api of ['v1', 'v2'] as const) {
      for (const [operationId, op] of contractOf(api)) {
        for (const status of Object.keys(op.node.responses).map(Number)) {
          const pair = `${api} ${operationId} ${status}`;
          const reason = unprobedResponse(api, operationId, op.node, status);
          if (!covered.has(pair) && !reason) missing.push(`${pair}: ${whereToProbe(api, status)}`);
          if (covered.has(pair) && reason) stale.push(`${pair}: ${reason}`);
        }
      }
    }
    expect(
      missing,
      'documented responses no check provokes (or an exemption with its reason in conformance/unprobed.ts)',
    ).toEqual([]);
    expect(stale, 'responses listed as unprobed that a check provokes').toEqual([]);
  });

  it('stays within its budgets of AI calls per key, spends the one key the quota probe chose up to the quota, and prints what it spent', () => {
    const byKey = Object.values(report.spent.aiCallsByKey);
    expect(byKey.length).toBeGreaterThan(1);
    // Seed 000, Limits: 5 AI calls per key per day; the probe reaches it with one key, no other key passes its budget.
    expect(byKey.filter((n) => n > BUDGET.aiCallsPerKey)).toEqual([5]);
    expect(report.spent.rateLimitRequests).toBeGreaterThan(0);
    expect(report.spent.rateLimitRequests).toBeLessThanOrEqual(BUDGET.rateLimitProbe);
    expect(summary(report)).toMatch(/spent: \d+ failed logins, \d+ AI calls \(\d+ by …\w{4}/);
    expect(summary(report)).toMatch(/\d+ requests to reach the rate limit/);
    // The failed-login probe (--probe-limits) has a budget of its own, on top of the run's.
    expect(report.spent.failedLogins).toBeLessThanOrEqual(
      BUDGET.failedLogins + BUDGET.revokedKeyRequests + BUDGET.failedLoginProbe,
    );
  });

  it('writes JUnit a CI understands and an HTML report with the verdict first', () => {
    const junit = toJunit(report);
    expect(junit).toMatch(/^<\?xml/);
    expect(junit.match(/<testcase /g)).toHaveLength(report.results.length);
    const html = toHtml(report);
    expect(html).toContain('Passed: every MUST requirement ran and passed');
  });
});

describe('every rule of the catalogue is checked, or says why no check can judge it', () => {
  const entries = ruleCatalogue(ALL_CHECKS);

  const levels = new Map(ALL_CHECKS.map((c) => [c.id, c.level]));
  const mustChecks = (e: (typeof entries)[number]) => e.checks.filter((id) => levels.get(id) === 'MUST');

  it('the catalogue holds at least 250 rules of both seeds and the tool server, at least 93 % judged by a MUST check', () => {
    expect(entries.length).toBeGreaterThanOrEqual(250);
    expect(entries.filter((e) => e.seed === '000').length).toBeGreaterThanOrEqual(100);
    expect(entries.filter((e) => e.seed === '001').length).toBeGreaterThanOrEqual(100);
    expect(entries.filter((e) => mustChecks(e).length).length / entries.length).toBeGreaterThanOrEqual(0.93);
  });

  // A rule is judged by a MUST, or says why none can judge it; a SHOULD may try the kit's reading of
  // what the seed does not show (a wire name, a path) beside that reason.
  it.each(entries.map((e) => [e.id, e] as const))('%s', (_id, e) => {
    const must = mustChecks(e);
    expect(must.length > 0 || Boolean(e.reason), `no MUST check covers ${e.id} and no reason is given`).toBe(
      true,
    );
    expect(
      must.length > 0 && Boolean(e.reason),
      `${e.id} is checked by ${must.join(', ')} yet gives a reason`,
    ).toBe(false);
  });

  it('every check names rules that exist; every SHOULD says what the kit assumed', () => {
    for (const c of ALL_CHECKS) {
      expect(c.rules.length, c.id).toBeGreaterThan(0);
      for (const r of c.rules) expect(SEED_RULES.has(r), `${c.id}: ${r}`).toBe(true);
      if (c.level === 'SHOULD') expect(c.assumption, c.id).toBeTruthy();
    }
    expect(new Set(ALL_CHECKS.map((c) => c.id)).size).toBe(ALL_CHECKS.length);
  });

  it('docs/conformance.md shows the table of rules and checks as it is (npm run generate writes it)', () => {
    expect(readFileSync(join(ROOT, 'docs', 'conformance.md'), 'utf8')).toContain(
      coverageMarkdown(ALL_CHECKS),
    );
  });

  it('`--rules --format json` prints the catalogue: {rules: [{id, seed, quote, checks, reason?}]}', async () => {
    const printed = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [join(ROOT, 'bin', 'lmskit.js'), 'conformance', '--rules', '--format', 'json'],
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    const { rules } = JSON.parse(printed) as { rules: typeof entries };
    expect(rules).toEqual(JSON.parse(JSON.stringify(entries)));
    for (const r of rules)
      expect(Object.keys(r)).toEqual(expect.arrayContaining(['id', 'seed', 'quote', 'checks']));
  }, 60_000);
});

describe('read-only mode', () => {
  let report: RunReport;
  let before: number;
  let after: number;
  beforeAll(async () => {
    await fresh();
    before = h.platform.version;
    report = await runChecks(ALL_CHECKS, config({ allowWrites: false }));
    after = h.platform.version;
  }, 60_000);

  it('changes nothing on a deployment that keeps the rules: the platform state is the same after the run', () => {
    expect(after).toBe(before);
    expect(report.spent.aiCalls).toBe(0);
  });

  it('passes every check it runs, and is incomplete, not green: exit code 3, naming --allow-writes', () => {
    expect(report.results.filter((r) => r.status === 'fail')).toEqual([]);
    expect(outcomeOf(report)).toBe('incomplete');
    expect(exitCode(report)).toBe(EXIT_CODES.incomplete);
    const text = summary(report);
    expect(text).toMatch(/INCOMPLETE — no MUST failed, but \d+ MUST requirement\(s\) did not run/);
    expect(text).toContain('writes are not allowed (--allow-writes)');
  });
});

describe("the deployment's limits", () => {
  it('a used-up AI quota ends the AI checks as blocked, retry after N s, and no MUST fails', async () => {
    await fresh();
    const only = 'v2.ai.generate.flow,v2.ai.refine.append-only';
    // Seed 000, Limits: 5 AI calls per key per day; each run spends two.
    const runs: RunReport[] = [];
    for (let i = 0; i < 3; i++) runs.push(await runChecks(ALL_CHECKS, config({ only, mcpUrl: undefined })));
    const last = runs[2] as RunReport;
    expect(runs.slice(0, 2).map(outcomeOf)).toEqual(['incomplete', 'incomplete']);
    const refine = last.results.find((r) => r.id === 'v2.ai.refine.append-only') as Result;
    expect(refine.status).toBe('incomplete');
    expect(refine.reason).toMatch(/^blocked by the deployment's limits — retry after \d+ s/);
    expect(refine.retryAfter).toBeGreaterThan(0);
    expect(last.results.filter((r) => r.status === 'fail')).toEqual([]);
    // The summary names the limit, when it resets and, on the mock, how to clear it (seed 000, Limits).
    expect(summary(last)).toMatch(
      /× the key's daily AI quota is used up \(seed 000, Limits: 5 AI calls per key a day\) — it resets at UTC midnight, \S+ by the deployment's clock \(in \d+ s\); on the lmskit mock, clear it now with POST \/__admin\/clock\/advance/,
    );
  }, 60_000);

  it('a per-IP lockout after failed logins ends the v2 checks as blocked, not failed', async () => {
    const strict = await startHarness('demo', {
      requestsPerMinute: 0,
      failedAuthMax: 1,
      failedAuthWindowSeconds: 300,
    });
    try {
      const cfg = config({ baseUrl: strict.base, mcpUrl: undefined, allowWrites: false });
      await runChecks(ALL_CHECKS, cfg); // its one wrong MCP key reaches the threshold
      const report = await runChecks(ALL_CHECKS, cfg);
      expect(report.results.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([]);
      const blocked = report.results.filter((r) => r.id.startsWith('v2.') && r.status === 'incomplete');
      expect(blocked.length).toBeGreaterThan(50);
      for (const r of blocked) expect(r.retryAfter, r.id).toBeGreaterThan(0);
      // The end of the run says until when this address is locked out, and how to end it on the mock.
      expect(Date.parse(report.lockedOutUntil ?? '')).toBeGreaterThan(Date.now());
      expect(summary(report)).toMatch(
        /note: this address is locked out of \/api\/v2 until \S+Z .*; on the lmskit mock, POST \/__admin\/reset ends it now/,
      );
    } finally {
      await strict.close();
    }
  }, 60_000);

  it('repeated runs stay under the default failed-login limit (20 per 5 minutes)', async () => {
    const defaults = await startHarness('demo', { requestsPerMinute: 0 });
    try {
      for (let i = 0; i < 5; i++) {
        const report = await runChecks(
          ALL_CHECKS,
          config({ baseUrl: defaults.base, mcpUrl: undefined, allowWrites: false }),
        );
        expect(report.results.filter((r) => r.retryAfter !== undefined)).toEqual([]);
        // Without role keys and writes the banned-owner check (one of the budget's 401s) does not run.
        expect(report.spent.failedLogins).toBeGreaterThan(0);
        expect(report.spent.failedLogins).toBeLessThanOrEqual(BUDGET.failedLogins);
      }
    } finally {
      await defaults.close();
    }
  }, 60_000);
});

describe('outcomes and reports', () => {
  const result = (over: Partial<Result>): Result => ({
    id: 'v1.example',
    area: 'v1.example',
    level: 'MUST',
    rules: ['001/courses.list'],
    source: 'seed 001, Endpoints > Courses and assignments',
    title: 'an example',
    status: 'pass',
    durationMs: 1,
    ...over,
  });
  const report = (results: Result[]): RunReport => ({
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 10,
    baseUrl: 'http://deployment.invalid',
    allowWrites: false,
    results,
    notes: [],
    requests: 1,
    spent: { failedLogins: 0, aiCalls: 0, aiCallsByKey: {}, rateLimitRequests: 0 },
    covered: [],
  });
  const failure = result({
    id: 'v1.courses.list.page-size',
    status: 'fail',
    reason: 'the first page has 25 courses',
    evidence: {
      expected: '20 courses',
      received: '200 {"courses":[...]}',
      curl: "curl -i -X GET 'http://deployment.invalid/openapi/v1/courses'",
    },
  });

  it.each([
    [
      'every MUST passed, a SHOULD failed',
      [result({}), result({ level: 'SHOULD', status: 'fail' })],
      'passed',
      0,
    ],
    ['a MUST failed', [result({}), failure], 'failed', 1],
    [
      'a MUST skipped',
      [result({}), result({ status: 'skip', reason: 'writes are not allowed (--allow-writes)' })],
      'incomplete',
      3,
    ],
    ['a MUST incomplete', [result({ status: 'incomplete', reason: 'no course' })], 'incomplete', 3],
    ['a MUST failed and another skipped', [failure, result({ status: 'skip' })], 'failed', 1],
    [
      'every MUST passed but one not opted in',
      [
        result({}),
        result({ status: 'skip', reason: 'not opted in (--probe-limits)', optIn: '--probe-limits' }),
      ],
      'passed',
      0,
    ],
  ] as const)('%s → %s, exit code %d', (_name, results, outcome, code) => {
    const r = report([...results]);
    expect(outcomeOf(r)).toBe(outcome);
    expect(exitCode(r)).toBe(code);
  });

  it('the terminal shows each failure with requirement, expected, received and the curl line, then the outcome', () => {
    const text = summary(report([result({}), failure]));
    expect(text).toContain('✗ [MUST] v1.courses.list.page-size');
    expect(text).toContain('requirement: seed 001, Endpoints > Courses and assignments');
    expect(text).toContain('expected:    20 courses');
    expect(text).toContain('received:    200 {"courses":[...]}');
    expect(text).toContain("reproduce:   curl -i -X GET 'http://deployment.invalid/openapi/v1/courses'");
    expect(text.trim().split('\n').at(-1)).toBe('FAILED — 1 MUST requirement(s) failed.');
  });

  it('the HTML report puts the verdict, then the failures, then the table', () => {
    const html = toHtml(
      report([
        result({}),
        failure,
        result({ id: 'v1.x', status: 'skip', reason: 'no tool server given (--mcp-url)' }),
      ]),
    );
    const at = (s: string) => html.indexOf(s);
    expect(at('class="verdict failed"')).toBeGreaterThan(0);
    expect(at('class="verdict failed"')).toBeLessThan(at('<h2>Failures</h2>'));
    expect(at('<h2>Failures</h2>')).toBeLessThan(at('<h2>MUST requirements that did not run</h2>'));
    expect(at('<h2>MUST requirements that did not run</h2>')).toBeLessThan(at('<h2>By area</h2>'));
    expect(html).toContain('curl -i -X GET');
  });

  it('JUnit shows a MUST that could not be judged as an error, so CI never shows it green', () => {
    const junit = toJunit(
      report([
        result({ status: 'incomplete', reason: 'blocked' }),
        result({ id: 'v1.y', status: 'skip', reason: 'x' }),
      ]),
    );
    expect(junit).toContain('<error message="blocked" type="incomplete">');
    expect(junit).toContain('<skipped message="x"/>');
  });
});

describe('the command', () => {
  it('exits 3 on a read-only run, with the amber outcome and the flag that would run the rest', async () => {
    await fresh();
    // Asynchronous: the mock answers from this process while the command runs.
    const run = await conformanceCommand(h.base, [
      '--api-key',
      DEMO_SITE_API_KEY,
      '--mcp-key',
      READ_KEY,
      '--mcp-key',
      WRITE_KEY,
    ]);
    expect(run.status, run.stderr).toBe(3);
    expect(run.stdout).toMatch(/INCOMPLETE — no MUST failed/);
    expect(run.stdout).toContain('writes are not allowed (--allow-writes)');
    expect(run.stdout).toContain('no MCP tool server given (--mcp-url)');
  }, 60_000);
});
