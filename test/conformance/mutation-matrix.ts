// The mutation matrix's tests, shared by the files that run it (mutations*.test.ts): the real mock
// behind a fault-injecting proxy (./proxy.ts, which says why a proxy and not the mock's own faults),
// with an MCP tool server that calls the backend through the same proxy. Each departure of
// ./departures/ must fail the MUST check named for it — run alone, as it runs in the full suite,
// since checks find their own fixtures — and each legitimate variation must leave every MUST of a
// full run passing, while the SHOULD named for it reports the kit's choice.
//
// Why several files: vitest runs the files of `npm test` in parallel but the tests of a file one after
// another, and the matrix is the longest work of the run (a complete run of the suite per variation,
// a run of the named checks per departure). Cut into parts, each with its own mock, proxy and tool
// servers (in-process, started in well under a second), it spreads over both workers instead of
// keeping one busy to the end. Every part runs its cases exactly as the single file did.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../conformance/checks/index.ts';
import { type ConformanceConfig, Context } from '../../conformance/context.ts';
import { outcomeOf, type RunReport, runChecks } from '../../conformance/runner.ts';
import { type Harness, startHarness } from '../mock/harness.ts';
import { DEPARTURES, VARIATIONS, type Variation } from './departures/index.ts';
import { completeConfig, type DeploymentKeys, prepareDeployment, startToolServer } from './deployment.ts';
import { type FaultProxy, matches, type Rewrite, startProxy } from './proxy.ts';

/** The survey's name for the requests of the preflight, made before the first check. */
const PREFLIGHT = '(preflight)';

/** The cases of part `part` (1-based) of `parts`, taken in turn so each part gets every area. */
const partOf = <T>(all: readonly T[], part: number, parts: number): T[] =>
  all.filter((_, i) => i % parts === part - 1);

/** Starts the mock, the proxy and the two tool servers for this file; stops them after it. */
function matrixDeployment() {
  let h: Harness;
  let proxy: FaultProxy;
  /** Tool servers whose backend is the proxy (a departure reaches them) or the mock itself. */
  const toolServers: { viaProxy: string; direct: string } = { viaProxy: '', direct: '' };
  const closers: (() => void)[] = [];

  /** A tool server that reads each key's tool list anew (a departure may change it between runs). */
  async function toolServer(baseUrl: string): Promise<string> {
    const { url, close } = await startToolServer(baseUrl, { toolListTtlMs: 0 });
    closers.push(close);
    return url;
  }

  beforeAll(async () => {
    // The mock's limits on, so the limit probes (--probe-limits) have something to find; generous
    // enough that the rest of a run never meets them. A reset forgets the counters.
    h = await startHarness('demo', { requestsPerMinute: 600, failedAuthMax: 20 });
    proxy = await startProxy(h.base);
    toolServers.viaProxy = await toolServer(proxy.url);
    toolServers.direct = await toolServer(h.base);
  });
  afterAll(async () => {
    for (const close of closers) close();
    await proxy?.close();
    await h?.close();
  });

  return {
    /**
     * A complete run of every check on a fresh platform with no rewrite, which also tells, for each
     * of `variations`, the checks its rewrites could change the verdict of (see `affected`).
     */
    async survey(variations: readonly Variation[]): Promise<Survey> {
      proxy.rewrites = [];
      proxy.toolServer = toolServers.direct;
      const keys = await prepareDeployment(h);
      const dry = variations.map((v) => v.rewrites(keys));
      /** The variations that would have changed an answer since the last verdict. */
      let changed = new Set<number>();
      const windows: { id: string; changed: Set<number> }[] = [];
      // Every answer goes through unchanged; each variation's rewrites are tried on a copy of it.
      const recorder: Rewrite = {
        path: /(?:)/,
        response: (answer, req) => {
          let before: string | undefined;
          for (const [i, rewrites] of dry.entries()) {
            const active = rewrites.filter((r) => matches(r, req));
            if (!active.length) continue;
            if (active.some((r) => r.request)) {
              changed.add(i);
              continue;
            }
            before ??= JSON.stringify(answer);
            let copy = {
              ...answer,
              ...(answer.headers ? { headers: { ...answer.headers } } : {}),
              body: Buffer.isBuffer(answer.body) ? Buffer.from(answer.body) : structuredClone(answer.body),
            };
            try {
              for (const r of active) copy = (r.response?.(copy, req) as typeof copy | undefined) ?? copy;
              if (JSON.stringify(copy) !== before) changed.add(i);
            } catch {
              changed.add(i);
            }
          }
        },
      };
      proxy.rewrites = [recorder];
      // Who asks for which shared fixture (Context.once), and so who made it: its first asker.
      const uses: [string | undefined, string][] = [];
      const once = Context.prototype.once;
      Context.prototype.once = function (this: Context, name, compute) {
        uses.push([this.currentCheck, name]);
        return once.call(this, name, compute);
      } as typeof once;
      // The preflight (the keys' capabilities, read before any check) is a window of its own.
      const discoverKeys = Context.prototype.discoverKeys;
      Context.prototype.discoverKeys = async function (this: Context) {
        const notes = await discoverKeys.call(this);
        windows.push({ id: PREFLIGHT, changed });
        changed = new Set();
        return notes;
      };
      let report: RunReport;
      try {
        report = await runChecks(
          ALL_CHECKS,
          completeConfig(proxy.url, keys, { mcpUrl: `${proxy.url}/mcp`, probeLimits: false }),
          (r) => {
            windows.push({ id: r.id, changed });
            changed = new Set();
          },
        );
      } finally {
        Context.prototype.once = once;
        Context.prototype.discoverKeys = discoverKeys;
        proxy.rewrites = [];
      }
      const owners = new Map<string, string | undefined>();
      for (const [check, name] of uses) if (!owners.has(name)) owners.set(name, check);
      const affected = variations.map((v, i): string[] | 'all' => {
        // Every check builds on what the preflight read.
        const preflight = windows.find((w) => w.id === PREFLIGHT);
        if (!preflight || preflight.changed.has(i)) return 'all';
        const ids = new Set(windows.filter((w) => w !== preflight && w.changed.has(i)).map((w) => w.id));
        if (v.noticedBy) ids.add(v.noticedBy.replace(/\.assumed$/, ''));
        // A check that uses a fixture made by an affected check is affected through it.
        for (let grown = true; grown; ) {
          grown = false;
          for (const [check, name] of uses) {
            const owner = owners.get(name);
            if (check && owner && ids.has(owner) && !ids.has(check)) {
              ids.add(check);
              grown = true;
            }
          }
        }
        return [...ids];
      });
      return { report, affected };
    },
    /** A complete run through the proxy: every key and flag (./deployment.ts), optionally a part only. */
    config: (keys: DeploymentKeys, over: Partial<ConformanceConfig> = {}): ConformanceConfig =>
      completeConfig(proxy.url, keys, { mcpUrl: `${proxy.url}/mcp`, ...over }),
    /** A fresh demo platform prepared for a complete run (./deployment.ts), these rewrites in the proxy. */
    async fresh(
      rewrites: (keys: DeploymentKeys) => FaultProxy['rewrites'],
      toolServer: 'viaProxy' | 'direct' = 'viaProxy',
    ): Promise<DeploymentKeys> {
      proxy.rewrites = [];
      proxy.toolServer = toolServers[toolServer];
      const keys = await prepareDeployment(h);
      proxy.rewrites = rewrites(keys);
      return keys;
    },
  };
}

/** A run with no rewrite, and per variation the checks it could affect ('all': the preflight's answers). */
interface Survey {
  report: RunReport;
  affected: (string[] | 'all')[];
}

const result = (report: RunReport, id: string) => report.results.find((r) => r.id === id);
const mustFailures = (report: RunReport) =>
  report.results.filter((r) => r.level === 'MUST' && r.status === 'fail').map((r) => `${r.id}: ${r.reason}`);

/** The departures of part `part` of `parts`: each fails the MUST named for it. */
export function departuresPart(part: number, parts: number): void {
  const deployment = matrixDeployment();
  describe(`departures (part ${part} of ${parts}): each fails the MUST named for it`, () => {
    it.each(partOf(DEPARTURES, part, parts).map((d) => [d.name, d] as const))(
      '%s',
      async (_name, d) => {
        const keys = await deployment.fresh(d.rewrites);
        const report = await runChecks(
          ALL_CHECKS,
          deployment.config(keys, { only: [d.catches, ...(d.alsoFails ?? [])].join(',') }),
        );
        const verdict = result(report, d.catches);
        expect(verdict, `${d.catches} ran`).toBeDefined();
        expect(verdict?.status, `${d.catches}: ${verdict?.reason}`).toBe('fail');
        expect(verdict?.reason).toBeTruthy();
        expect(outcomeOf(report)).toBe('failed');
        // A check that cannot find what the departure hides fails too, rather than being skipped.
        for (const id of d.alsoFails ?? [])
          expect(result(report, id)?.status, `${id}: ${result(report, id)?.reason}`).toBe('fail');
      },
      120_000,
    ); // a few checks, the limit probes among them: half of 30 s beside busy processes; guards a hang
  });
}

/**
 * The legitimate variations of part `part` of `parts`: no MUST fails, the SHOULD notes the choice.
 *
 * The variations are choices of the platform. The kit's tool server serves the kit's output schemas
 * verbatim, so in front of a platform that chose otherwise its results would depart from its own
 * schemas: a mismatch of two parts, not of the deployment (whose tool server would serve its own
 * schemas). So here the tool server reads the platform as the kit made it.
 * The limits are not probed here: a variation is a choice of the platform's answers, and the probes
 * spend the deployment's budgets, which each departure of theirs already covers.
 *
 * How it is fast: one complete run without any rewrite (the survey) must pass, and shows for each
 * variation which checks it could change the verdict of: a check is affected when its rewrites, tried
 * on a copy of an answer the check received, change that answer (status, headers or body), or when it
 * uses a shared fixture (Context.once) made by an affected check, and so on; when they change an
 * answer of the preflight (which every check builds on), every check is. A rewrite changes answers
 * only, so a check none of whose answers it changes sees the same deployment and reaches the same
 * verdict as in the survey: a pass. Each variation then runs the checks it affects (and the SHOULD
 * that notices it), each of whose MUSTs must reach the survey's verdict; a variation that touches the
 * preflight runs every check, and the outcome must be `passed`.
 */
export function variationsPart(part: number, parts: number): void {
  const deployment = matrixDeployment();
  const variations = partOf(VARIATIONS, part, parts);
  let survey: Survey;
  beforeAll(async () => {
    survey = await deployment.survey(variations);
  }, 180_000);

  describe(`legitimate variations (part ${part} of ${parts}): no MUST fails, the SHOULD notes the choice`, () => {
    it('every MUST passes without any variation (the survey)', () => {
      expect(mustFailures(survey.report)).toEqual([]);
      expect(outcomeOf(survey.report)).toBe('passed');
    });

    it.each(variations.map((v, i) => [v.name, v, i] as const))(
      '%s',
      async (_name, v, i) => {
        const selection = survey.affected[i] ?? 'all';
        const keys = await deployment.fresh(v.rewrites, 'direct');
        const report = await runChecks(
          ALL_CHECKS,
          deployment.config(keys, {
            probeLimits: false,
            ...(selection === 'all' ? {} : { only: selection.join(',') }),
          }),
        );
        expect(mustFailures(report)).toEqual([]);
        if (selection === 'all') expect(outcomeOf(report)).toBe('passed');
        else {
          const ran = report.results.filter(
            (r) => r.level === 'MUST' && r.reason !== 'not selected (--only, --skip)',
          );
          expect(ran.map((r) => `${r.id}: ${r.status}`)).toEqual(
            ran.map((r) => `${r.id}: ${result(survey.report, r.id)?.status}`),
          );
        }
        if (!v.noticedBy) return;
        const noticed = result(report, v.noticedBy);
        expect(noticed?.level).toBe('SHOULD');
        expect(noticed?.status).toBe('fail');
        expect(noticed?.reason ?? noticed?.source).toMatch(/assumed by the kit, not stated by the seeds/);
      },
      // The checks a variation affects, up to the whole suite: a few seconds on a quiet machine and
      // past 30 s beside busy processes: the timeout only guards against a hang, as the fuzz tests'
      // does. One that expired went on in the background and spent the next variations' failed-login
      // budget.
      180_000,
    );
  });
}
