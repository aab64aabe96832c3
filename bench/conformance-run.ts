// What a complete conformance run costs (docs/conformance.md): the suite with every key, flag and
// opt-in against an in-process mock and tool server, prepared as test/conformance/deployment.ts
// prepares it. Prints the median CPU time (this process: the suite, the mock and the tool server) and
// wall time of RUNS runs after a first one, which compiles the contracts' validators and is not counted.
// Run with `node --import tsx bench/conformance-run.ts`. A measurement, not a test.
import { ALL_CHECKS } from '../conformance/checks/index.ts';
import { outcomeOf, runChecks } from '../conformance/runner.ts';
import { completeConfig, prepareDeployment, startToolServer } from '../test/conformance/deployment.ts';
import { startHarness } from '../test/mock/harness.ts';
import { median } from './stats.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const mock = await startHarness('demo', { requestsPerMinute: 600, failedAuthMax: 20 });
const toolServer = await startToolServer(mock.base);
const cpu: number[] = [];
const wall: number[] = [];
for (let i = 0; i <= RUNS; i++) {
  const keys = await prepareDeployment(mock);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const report = await runChecks(
    ALL_CHECKS,
    completeConfig(mock.base, keys, { mcpUrl: `${toolServer.url}/mcp` }),
  );
  if (outcomeOf(report) !== 'passed') throw new Error(`run ${i}: ${outcomeOf(report)}`);
  if (i === 0) continue;
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
  wall.push(performance.now() - t0);
}
console.log(
  `${RUNS} complete runs: ${median(cpu).toFixed(0)} ms CPU, ${median(wall).toFixed(0)} ms wall (medians)`,
);
toolServer.close();
await mock.close();
