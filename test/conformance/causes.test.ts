// A failure caused by another check's failure says so and does not count as its own (a shared
// fixture, `Context.once`, failing in the check that made it), and the summaries lead with the cause;
// a run stopped by the deployment's limits names the limit, when it ends and, on the mock, how to
// clear it (seed 000, Limits; docs/mock.md, Reset). A fault on the mock (docs/mock.md, Faults) makes
// the fixture fail deterministically.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../conformance/checks/index.ts';
import type { ConformanceConfig } from '../../conformance/context.ts';
import { limitOf } from '../../conformance/outcomes.ts';
import { toHtml } from '../../conformance/reporters/html.ts';
import { jsonReport } from '../../conformance/reporters/json.ts';
import { toJunit } from '../../conformance/reporters/junit.ts';
import { summary } from '../../conformance/reporters/terminal.ts';
import { outcomeOf, type RunReport, runChecks, startWarnings } from '../../conformance/runner.ts';
import { ROOT } from '../../lib/paths.ts';
import { DEMO_SITE_API_KEY, type Harness, READ_KEY, startHarness, WRITE_KEY } from '../mock/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('demo');
});
afterAll(async () => {
  await h.close();
});

const config = (over: Partial<ConformanceConfig> = {}): ConformanceConfig => ({
  baseUrl: h.base,
  apiKey: DEMO_SITE_API_KEY,
  mcpKeys: [READ_KEY, WRITE_KEY],
  allowWrites: true,
  pollIntervalMs: 10,
  ...over,
});

const USER_CHECKS = 'v1.users.create.contract,v1.users.create.duplicate-email,v1.users.patch.invalid-email';

describe('a fixture that fails in the check that makes it', () => {
  let report: RunReport;
  beforeAll(async () => {
    await h.admin('/reset', { method: 'POST', json: {} });
    // The run's user (POST /openapi/v1/users), made by v1.users.create.contract, is refused once.
    const fault = await h.admin('/faults', {
      method: 'POST',
      json: { method: 'POST', path: '/openapi/v1/users', count: 1, status: 503 },
    });
    expect(fault.status).toBe(201);
    report = await runChecks(ALL_CHECKS, config({ only: USER_CHECKS }));
  }, 60_000);

  const result = (id: string) => report.results.find((r) => r.id === id);

  it('fails there, once; the checks that need it are blocked by it, not failed', () => {
    expect(result('v1.users.create.contract')?.status).toBe('fail');
    for (const id of ['v1.users.create.duplicate-email', 'v1.users.patch.invalid-email']) {
      expect(result(id)?.status, id).toBe('incomplete');
      expect(result(id)?.blockedBy, id).toBe('v1.users.create.contract');
      expect(result(id)?.reason, id).toMatch(
        /^blocked by v1\.users\.create\.contract: a fixture user could not be created/,
      );
    }
    expect(report.results.filter((r) => r.level === 'MUST' && r.status === 'fail').map((r) => r.id)).toEqual([
      'v1.users.create.contract',
    ]);
    expect(outcomeOf(report)).toBe('failed');
  });

  it('every report leads with the cause and what it blocks', () => {
    const text = summary(report);
    expect(text).toMatch(/✗ \[MUST\] v1\.users\.create\.contract[^\n]*\n {2}blocks: {6}2 more check\(s\)/);
    expect(text).toMatch(
      /cause: v1\.users\.create\.contract failed, and 2 check\(s\) that need it are blocked by it/,
    );
    expect(text).toMatch(/FAILED — 1 MUST requirement\(s\) failed/);
    expect(toHtml(report)).toMatch(
      /Causes first:<\/b> <code>v1\.users\.create\.contract<\/code> failed, and 2 check/,
    );
    const junit = toJunit(report);
    expect(junit).toMatch(/<failure message="\(cause of 2 blocked\)/);
    expect(junit).toMatch(/<skipped message="blocked by v1\.users\.create\.contract: /);
    expect(junit).not.toMatch(/type="incomplete"/);
    expect(jsonReport(report).causes).toEqual([
      {
        id: 'v1.users.create.contract',
        blocks: ['v1.users.create.duplicate-email', 'v1.users.patch.invalid-email'],
      },
    ]);
  });

  it('the command says so: exit 1, the cause in the banner, the knock-ons blocked by it', async () => {
    await h.admin('/faults', {
      method: 'POST',
      json: { method: 'POST', path: '/openapi/v1/users', count: 1, status: 503 },
    });
    const run = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const args = ['conformance', '--base-url', h.base, '--api-key', DEMO_SITE_API_KEY, '--allow-writes'];
      const child = execFile(
        process.execPath,
        [join(ROOT, 'bin', 'lmskit.js'), ...args, '--only', USER_CHECKS],
        { timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
        (_error, stdout) => resolve({ status: child.exitCode, stdout }),
      );
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      '? MUST   v1.users.create.duplicate-email — blocked by v1.users.create.contract: ',
    );
    expect(run.stdout).toMatch(
      /FAILED — 1 MUST requirement\(s\) failed; \d+ did not run\.\n {2}cause: v1\.users\.create\.contract failed, and 2 check\(s\) that need it are blocked by it/,
    );
  }, 60_000);

  it('without the check that makes it, the first check that needs it fails itself', async () => {
    await h.admin('/faults', {
      method: 'POST',
      json: { method: 'POST', path: '/openapi/v1/users', count: 1, status: 503 },
    });
    const alone = await runChecks(
      ALL_CHECKS,
      config({ only: 'v1.users.create.duplicate-email,v1.users.patch.invalid-email' }),
    );
    const of = (id: string) => alone.results.find((r) => r.id === id);
    expect(of('v1.users.create.duplicate-email')?.status).toBe('fail');
    expect(of('v1.users.patch.invalid-email')?.blockedBy).toBe('v1.users.create.duplicate-email');
  }, 60_000);
});

describe("the deployment's limits in the summary", () => {
  it("reads the mock's 429s: the key's and the workspace's daily AI quota, the lockout, the rate limit", () => {
    const quota = JSON.stringify({
      error: 'Daily AI quota used (5 calls per key); resets at 2026-01-02T00:00:00Z, retry after 85942s.',
      code: 'MCP_RATE_LIMITED',
    });
    expect(limitOf(quota, 85942)).toEqual({ kind: 'ai-quota-key', resetsAt: '2026-01-02T00:00:00.000Z' });
    const tenant = JSON.stringify({
      error:
        'Daily AI quota of the workspace used (50 calls); resets at 2026-01-02T00:00:00Z, retry after 9s.',
      code: 'MCP_RATE_LIMITED',
    });
    expect(limitOf(tenant, 9).kind).toBe('ai-quota-tenant');
    const lockout = JSON.stringify({
      error: 'Too many failed attempts, retry after 300s',
      code: 'MCP_AUTH_RATE_LIMITED',
    });
    expect(limitOf(lockout, 300, Date.UTC(2026, 10, 28, 3, 0))).toEqual({
      kind: 'failed-logins',
      resetsAt: '2026-11-28T03:05:00.000Z',
    });
    expect(limitOf(JSON.stringify({ error: 'retry after 90s', code: 'MCP_RATE_LIMITED' }), 90).kind).toBe(
      'rate',
    );
  });

  it('a second run the same day: names the quota, its reset at UTC midnight and, on the mock, how to clear it', async () => {
    await h.admin('/reset', { method: 'POST', json: {} });
    // The write key's quota of the day spent by its five AI calls: the mock answers the next with 429.
    const quota = await h.admin('/faults', {
      method: 'POST',
      json: {
        method: 'POST',
        path: '/api/v2/*',
        count: 100,
        status: 429,
        body: {
          error: 'Daily AI quota used (5 calls per key); resets at 2026-01-02T00:00:00Z, retry after 85942s.',
          code: 'MCP_RATE_LIMITED',
        },
      },
    });
    expect(quota.status).toBe(201);
    const report = await runChecks(ALL_CHECKS, config({ only: 'v2.ai.generate' }));
    await h.admin('/faults', { method: 'DELETE' });
    const blocked = report.results.filter((r) => r.limit);
    expect(blocked.length).toBeGreaterThan(0);
    expect(report.mock).toBe(true);
    const text = summary(report);
    expect(text).toMatch(
      /× the key's daily AI quota is used up \(seed 000, Limits: 5 AI calls per key a day\) — it resets at UTC midnight, 2026-01-02T00:00:00\.000Z by the deployment's clock \(in 85942 s\); on the lmskit mock, clear it now with POST \/__admin\/clock\/advance \{"seconds": 85942\}/,
    );
    expect(text).not.toMatch(/retry after 85942 s\n/);
    expect(toHtml(report)).toMatch(
      /the key&#39;s daily AI quota is used up|the key's daily AI quota is used up/,
    );
  }, 60_000);

  it('with --probe-limits, says before the run that the address will be locked out of /api/v2', () => {
    expect(startWarnings(config({ probeLimits: true })).join('\n')).toMatch(
      /locks this address out of .*\/api\/v2 .*about 5 minutes/,
    );
    expect(startWarnings(config())).toEqual([]);
  });

  it('the command prints that warning before the first check runs', async () => {
    // No check selected: nothing is probed, the run is incomplete (exit 3).
    const run = await new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [
          join(ROOT, 'bin', 'lmskit.js'),
          'conformance',
          '--base-url',
          h.base,
          '--probe-limits',
          '--only',
          'no.such.check',
        ],
        { timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
        (_error, stdout) => resolve({ status: child.exitCode, stdout }),
      );
    });
    expect(run.status).toBe(3);
    const lines = run.stdout.split('\n');
    expect(lines[1]).toMatch(/^warning: --probe-limits: .*locks this address out of .*\/api\/v2/);
    expect(lines.findIndex((l) => /^- /.test(l))).toBeGreaterThan(1);
  }, 60_000);
});
