// A baseline of expected failures (`--baseline FILE`, `baseline` of runConformance; docs/conformance.md,
// "Baseline"): a known MUST failure does not fail the run, a new one does and is the only one named, and
// one the baseline lists that now passes is listed as fixed — in the terminal, HTML and JUnit reports.
// Faults injected on the mock (docs/mock.md, Faults) make a check fail deterministically.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baselineIds, readBaseline } from '../../conformance/baseline.ts';
import { ALL_CHECKS } from '../../conformance/checks/index.ts';
import type { ConformanceConfig } from '../../conformance/context.ts';
import { toHtml } from '../../conformance/reporters/html.ts';
import { jsonReport } from '../../conformance/reporters/json.ts';
import { toJunit } from '../../conformance/reporters/junit.ts';
import { summary } from '../../conformance/reporters/terminal.ts';
import { exitCode, outcomeOf, runChecks } from '../../conformance/runner.ts';
import { runConformance } from '../../package/run-conformance.ts';
import { DEMO_SITE_API_KEY, type Harness, startHarness } from '../mock/harness.ts';
import { conformanceCommand } from './command.ts';

let h: Harness;
const dir = mkdtempSync(join(tmpdir(), 'lmskit-baseline-'));
beforeAll(async () => {
  h = await startHarness('demo');
});
afterAll(async () => {
  await h.close();
});
beforeEach(async () => {
  await h.admin('/reset', { method: 'POST', json: {} });
});

/** Two read checks of v1, run alone: both pass on the mock. */
const COURSES = 'v1.courses.list.contract';
/**
 * Through runConformance and the command, the preflight reads /openapi/v1/courses before any check
 * (it would spend a fault there): those tests break a course's detail instead.
 */
const DETAIL = 'v1.courses.detail.contract';
const STATISTICS = 'v1.statistics.contract';
const CHECKS = ALL_CHECKS.filter((c) => c.id === COURSES || c.id === STATISTICS);
const config = (over: Partial<ConformanceConfig> = {}): ConformanceConfig => ({
  baseUrl: h.base,
  apiKey: DEMO_SITE_API_KEY,
  mcpKeys: [],
  allowWrites: false,
  ...over,
});

/** Makes the next request to a v1 path answer 503 (docs/mock.md, Faults). */
async function breakOnce(path: string): Promise<void> {
  const fault = await h.admin('/faults', {
    method: 'POST',
    json: { method: 'GET', path, count: 1, status: 503 },
  });
  expect(fault.status).toBe(201);
}

const file = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};

describe('a baseline', () => {
  it('with the one known failure: the run passes against it, exit 0, and the reports say so', async () => {
    await breakOnce('/openapi/v1/courses');
    const report = await runChecks(CHECKS, config({ baseline: { source: 'known.json', ids: [COURSES] } }));
    expect(report.results.find((r) => r.id === COURSES)?.status).toBe('fail');
    expect(report.baseline).toMatchObject({ newFailures: [], known: [COURSES], fixed: [] });
    expect(outcomeOf(report)).toBe('passed');
    expect(exitCode(report)).toBe(0);
    expect(summary(report)).toMatch(
      /PASSED against the baseline — no new MUST failure; 1 known failure\(s\) it lists still fail: v1\.courses\.list\.contract/,
    );
    expect(summary(report)).toContain(`✗ [MUST] ${COURSES} (known: in the baseline)`);
    expect(toHtml(report)).toMatch(/Against the baseline/);
    expect(toJunit(report)).toMatch(/<skipped message="known failure, in the baseline known\.json: /);
    expect(toJunit(report)).toMatch(/<testsuites name="lmskit conformance" tests="2" failures="0"/);
  }, 60_000);

  it('a new failure fails the run, exit 1, naming only it', async () => {
    await breakOnce('/openapi/v1/courses');
    await breakOnce('/openapi/v1/statistics');
    const report = await runChecks(CHECKS, config({ baseline: { source: 'known.json', ids: [COURSES] } }));
    expect(report.baseline).toMatchObject({ newFailures: [STATISTICS], known: [COURSES] });
    expect(exitCode(report)).toBe(1);
    const banner = summary(report)
      .split('\n')
      .filter((l) => l.startsWith('FAILED'));
    expect(banner).toEqual([
      `FAILED — 1 MUST requirement(s) newly failing, not in the baseline: ${STATISTICS} (and 1 known).`,
    ]);
    expect(toJunit(report)).toMatch(/<failure message="\(new: not in the baseline\) /);
    expect(toHtml(report)).toMatch(/new: not in the baseline/);
  }, 60_000);

  it('one it lists that now passes is listed as fixed', async () => {
    const report = await runChecks(CHECKS, config({ baseline: { source: 'known.json', ids: [COURSES] } }));
    expect(report.baseline).toMatchObject({ newFailures: [], known: [], fixed: [COURSES] });
    expect(exitCode(report)).toBe(0);
    expect(summary(report)).toContain(
      `fixed, in the baseline and now passing (take them out of it): 1: ${COURSES}`,
    );
    expect(summary(report)).toContain(`fixed since the baseline: ${COURSES}`);
    expect(toJunit(report)).toContain(
      '<system-out>fixed: listed in the baseline known.json, now passes</system-out>',
    );
    expect(toHtml(report)).toMatch(/Fixed<\/b> \(in the baseline, now passing/);
  }, 60_000);

  it('excuses the checks blocked by a known failure: they do not make the run incomplete', async () => {
    const fault = await h.admin('/faults', {
      method: 'POST',
      json: { method: 'POST', path: '/openapi/v1/users', count: 1, status: 503 },
    });
    expect(fault.status).toBe(201);
    const ids = ['v1.users.create.contract', 'v1.users.create.duplicate-email'];
    const report = await runChecks(
      ALL_CHECKS.filter((c) => ids.includes(c.id)),
      config({ allowWrites: true, baseline: { source: 'known.json', ids: ['v1.users.create.contract'] } }),
    );
    expect(report.results.find((r) => r.id === ids[1])?.blockedBy).toBe(ids[0]);
    expect(outcomeOf(report)).toBe('passed');
    expect(exitCode(report)).toBe(0);
  }, 60_000);

  it("is read from the suite's JSON report (its MUST failures) or a list of ids; anything else is refused", async () => {
    await breakOnce('/openapi/v1/courses');
    const earlier = jsonReport(await runChecks(CHECKS, config()));
    expect(baselineIds(JSON.parse(JSON.stringify(earlier)))).toEqual([COURSES]);
    expect(readBaseline(file('list.json', [COURSES, COURSES])).ids).toEqual([COURSES]);
    expect(() => readBaseline(file('bad.json', { failures: [] }))).toThrow(
      /the baseline .*bad\.json: it is neither a JSON report of the suite/,
    );
    expect(() => readBaseline(join(dir, 'missing.json'))).toThrow(
      /cannot read the baseline .*missing\.json: ENOENT/,
    );
  });

  it('runConformance takes it as a file, a report or a list', async () => {
    await breakOnce('/openapi/v1/courses/*');
    const path = file('ids.json', [DETAIL]);
    const report = await runConformance({ ...config(), only: DETAIL, baseline: path });
    expect(report.baseline).toMatchObject({ source: path, newFailures: [], known: [DETAIL] });
    const fromList = await runConformance({ ...config(), only: DETAIL, baseline: [DETAIL] });
    expect(fromList.baseline).toMatchObject({ known: [], fixed: [DETAIL] });
  }, 60_000);
});

/** The command, run against the mock. */
const lmskit = (args: string[]) => conformanceCommand(h.base, ['--api-key', DEMO_SITE_API_KEY, ...args]);

describe('--baseline FILE', () => {
  it('exits 1 on a failure it does not list, naming only that one', async () => {
    await breakOnce('/openapi/v1/courses/*');
    await breakOnce('/openapi/v1/statistics');
    const run = await lmskit(['--only', `${DETAIL},${STATISTICS}`, '--baseline', file('cli.json', [DETAIL])]);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      `FAILED — 1 MUST requirement(s) newly failing, not in the baseline: ${STATISTICS} (and 1 known).`,
    );
    expect(run.stdout).toContain(`newly failing, not in the baseline: 1: ${STATISTICS}`);
  }, 60_000);

  it('is a usage error, exit 2, when the file is not a baseline', async () => {
    const run = await lmskit(['--baseline', file('not.json', { hello: 1 })]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/the baseline .*not\.json: it is neither a JSON report of the suite/);
  }, 60_000);
});
