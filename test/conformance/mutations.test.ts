// The conformance suite proven against departures it was not written around: the real mock behind a
// fault-injecting proxy (./proxy.ts, which says why a proxy and not the mock's own faults), with an
// MCP tool server that calls the backend through the same proxy. Each departure of ./departures/
// must fail the MUST check named for it — run alone, as it runs in the full suite, since checks find
// their own fixtures — and each legitimate variation must leave every MUST of a full run passing,
// while the SHOULD named for it reports the kit's choice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../conformance/checks/index.ts';
import type { ConformanceConfig } from '../../conformance/context.ts';
import { outcomeOf, type RunReport, runChecks } from '../../conformance/runner.ts';
import { type Harness, startHarness } from '../mock/harness.ts';
import { DEPARTURES, VARIATIONS } from './departures/index.ts';
import { completeConfig, type DeploymentKeys, prepareDeployment, startToolServer } from './deployment.ts';
import { type FaultProxy, startProxy } from './proxy.ts';

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
  await proxy.close();
  await h.close();
});

/** A complete run through the proxy: every key and flag (./deployment.ts), optionally a part only. */
const config = (keys: DeploymentKeys, over: Partial<ConformanceConfig> = {}): ConformanceConfig =>
  completeConfig(proxy.url, keys, { mcpUrl: `${proxy.url}/mcp`, ...over });

/** A fresh demo platform prepared for a complete run (./deployment.ts), no rewrites. */
async function fresh(toolServer: 'viaProxy' | 'direct' = 'viaProxy'): Promise<DeploymentKeys> {
  proxy.rewrites = [];
  proxy.toolServer = toolServers[toolServer];
  return prepareDeployment(h);
}

const result = (report: RunReport, id: string) => report.results.find((r) => r.id === id);
const mustFailures = (report: RunReport) =>
  report.results.filter((r) => r.level === 'MUST' && r.status === 'fail').map((r) => `${r.id}: ${r.reason}`);

describe('the mutation matrix', () => {
  it('has at least 40 departures across v1, v2 and the tool server, each traced to a seed sentence and named for a MUST check', () => {
    expect(DEPARTURES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(DEPARTURES.map((d) => d.name)).size).toBe(DEPARTURES.length);
    const levels = new Map(ALL_CHECKS.map((c) => [c.id, c.level]));
    for (const d of DEPARTURES) {
      expect(d.seed, d.name).toMatch(/^(000|001|MCP specification)\b/);
      expect(levels.get(d.catches), d.name).toBe('MUST');
    }
    const by = (prefix: string) => DEPARTURES.filter((d) => d.catches.startsWith(prefix)).length;
    expect(by('v1.')).toBeGreaterThanOrEqual(10);
    expect(by('v2.')).toBeGreaterThanOrEqual(10);
    expect(by('mcp.')).toBeGreaterThanOrEqual(5);
  });

  it('has at least 16 legitimate variations, each a choice the seeds leave open', () => {
    expect(VARIATIONS.length).toBeGreaterThanOrEqual(16);
    for (const v of VARIATIONS) expect(v.choice, v.name).toMatch(/not shown|kit|forbid/);
  });
});

describe('departures: each fails the MUST named for it', () => {
  it.each(DEPARTURES.map((d) => [d.name, d] as const))(
    '%s',
    async (_name, d) => {
      const keys = await fresh();
      proxy.rewrites = d.rewrites(keys);
      const report = await runChecks(
        ALL_CHECKS,
        config(keys, { only: [d.catches, ...(d.alsoFails ?? [])].join(',') }),
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

// The variations are choices of the platform. The kit's tool server serves the kit's output schemas
// verbatim, so in front of a platform that chose otherwise its results would depart from its own
// schemas: a mismatch of two parts, not of the deployment (whose tool server would serve its own
// schemas). So here the tool server reads the platform as the kit made it.
// The limits are not probed here: a variation is a choice of the platform's answers, and the probes
// spend the deployment's budgets, which each departure of theirs already covers.
describe('legitimate variations: no MUST fails, the SHOULD notes the choice', () => {
  it.each(VARIATIONS.map((v) => [v.name, v] as const))(
    '%s',
    async (_name, v) => {
      const keys = await fresh('direct');
      proxy.rewrites = v.rewrites(keys);
      const report = await runChecks(ALL_CHECKS, config(keys, { probeLimits: false }));
      expect(mustFailures(report)).toEqual([]);
      expect(outcomeOf(report)).toBe('passed');
      if (!v.noticedBy) return;
      const noticed = result(report, v.noticedBy);
      expect(noticed?.level).toBe('SHOULD');
      expect(noticed?.status).toBe('fail');
      expect(noticed?.reason ?? noticed?.source).toMatch(/assumed by the kit, not stated by the seeds/);
    },
    // Each variation runs the whole suite, a few seconds on a quiet machine and past 30 s beside
    // busy processes: the timeout only guards against a hang, as the fuzz tests' does. One that
    // expired went on in the background and spent the next variations' failed-login budget.
    180_000,
  );
});
