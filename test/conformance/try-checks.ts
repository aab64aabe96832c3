// For whoever writes a check: `node --import tsx test/conformance/try-checks.ts 'v2.permission.*'`
// runs the checks matching the pattern against a fresh, fully prepared demo mock (./deployment.ts)
// and its tool server, and prints the terminal report. Add `--via-proxy NAME` to run them through
// the fault proxy with the departure of that name (./departures/index.ts).
import { ALL_CHECKS } from '../../conformance/checks/index.ts';
import { summary } from '../../conformance/reporters/terminal.ts';
import { runChecks } from '../../conformance/runner.ts';
import { startHarness } from '../mock/harness.ts';
import { DEPARTURES } from './departures/index.ts';
import { completeConfig, prepareDeployment, startToolServer } from './deployment.ts';
import { startProxy } from './proxy.ts';

const [only, flag, name] = process.argv.slice(2);
const h = await startHarness('demo', { requestsPerMinute: 600, failedAuthMax: 20 });
const departure = flag === '--via-proxy' ? DEPARTURES.find((d) => d.name === name) : undefined;
if (flag === '--via-proxy' && !departure) throw new Error(`no departure named ${name}`);
const proxy = departure ? await startProxy(h.base) : undefined;
const base = proxy?.url ?? h.base;
const toolServer = await startToolServer(base, { version: 'dev', toolListTtlMs: 0 });
const keys = await prepareDeployment(h);
if (proxy && departure) {
  proxy.toolServer = toolServer.url;
  proxy.rewrites = departure.rewrites(keys);
}
const report = await runChecks(
  ALL_CHECKS,
  completeConfig(base, keys, { mcpUrl: `${proxy ? base : toolServer.url}/mcp`, ...(only ? { only } : {}) }),
  (r) =>
    r.status !== 'skip' &&
    console.log(`${r.status.padEnd(10)} ${r.level.padEnd(6)} ${r.id}${r.reason ? ` — ${r.reason}` : ''}`),
);
console.log(summary(report));
toolServer.close();
await proxy?.close();
await h.close();
