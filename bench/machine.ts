// The machine the bench runs on, and how it splits the cores: servers on the lower half, the load
// generator on the upper half (with `taskset`, where it exists and there are at least 2 cores), so
// client and server do not take each other's time. Other processes on the machine still can; the
// load average at start and end is recorded for that reason.
import { execFileSync, execSync } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem } from 'node:os';

const cores = cpus().length;

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const canPin = cores >= 2 && hasTaskset();
const half = Math.max(1, Math.floor(cores / 2));

/** CPU lists for `taskset -c`: the servers' and the load generator's, or null where nothing is pinned. */
export const CPUS = canPin
  ? {
      server: half === 1 ? '0' : `0-${half - 1}`,
      client: cores - half === 1 ? String(half) : `${half}-${cores - 1}`,
    }
  : null;

/** Pins a running process (every thread of it) to the given CPU list. */
export function pin(pid: number, cpuList: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', cpuList, String(pid)], { stdio: 'ignore' });
}

export function describeMachine() {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    freeMemoryGb: Math.round(freemem() / 2 ** 30),
    os: execSync('uname -sr').toString().trim(),
    node: process.version,
    pinning: CPUS
      ? `servers on CPU ${CPUS.server}, load generator on CPU ${CPUS.client} (taskset)`
      : 'none (taskset missing or a single core)',
  };
}

/** The 1, 5 and 15 minute load averages, rounded. */
export const loadAverage = () => loadavg().map((x) => Math.round(x * 100) / 100);
