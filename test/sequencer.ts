// The order vitest starts test files in, for `npm test` on three workers: the longest first, so no long
// file starts last and leaves one worker running it alone at the end (vitest's own sequencer, without
// a cache, starts the larger files first, which put the conformance suite and the mutation matrix near
// the end). The files that mostly wait (WAITING) take their turns one after another, each beside two
// files that work: two waiting at once left a core idle for half a minute.
// A file's weight is its duration in vitest's cache of the last run when it has one, else its
// entry below (seconds of a quiet 2-core run), else nothing (the short files, largest first).
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds a file took, hooks included, in a whole `npm test` on a quiet 2-core machine (vitest's
 * cache), for the files over 8 s.
 */
const SECONDS: Record<string, number> = {
  'test/docs-site.browser.test.ts': 76,
  'test/e2e/shared-sandbox-conformance.test.ts': 53,
  'test/mock/fuzz-admin.test.ts': 47,
  'test/conformance/suite.test.ts': 38,
  'test/conformance/mutations-variations.test.ts': 37,
  'test/conformance/mutations.test.ts': 31,
  'test/e2e/stalled-bodies.test.ts': 28,
  'test/mcp/stalled-bodies.test.ts': 28,
  'test/mcp/flows.test.ts': 27,
  'test/e2e/state-file-boundaries.test.ts': 25,
  'test/e2e/shared-sandbox.test.ts': 24,
  'mock/store/postgres-store.test.ts': 23,
  'test/mock/fuzz.test.ts': 22,
  'test/mock/fuzz-v2.test.ts': 22,
  'test/e2e/state-file.test.ts': 22,
  'package/index.test.ts': 21,
  'test/e2e/failed-logins.test.ts': 20,
  'test/e2e/readme-conformance.test.ts': 20,
  'mock/store/postgres-journal.test.ts': 19,
  'mock/store/postgres-replicas.test.ts': 18,
  'test/e2e/command-line.test.ts': 18,
  'test/e2e/mock-process.test.ts': 16,
  'test/console.browser.test.ts': 15,
  'mock/ai/extract.test.ts': 15,
  'test/contracts/lint.test.ts': 14,
  'test/e2e/uploads.test.ts': 14,
  'test/e2e/host-check.test.ts': 14,
  'test/e2e/conformance-settings.test.ts': 12,
  'test/e2e/fixtures.test.ts': 11,
  'test/contracts/generated.test.ts': 11,
  'lib/dredd-export.test.ts': 11,
  'test/e2e/docs-kept.test.ts': 11,
  'test/mcp/clients.test.ts': 11,
  'test/mcp/tools-stdio.test.ts': 10,
  'test/mcp/upload-root.test.ts': 10,
  'test/e2e/webhooks.test.ts': 9,
  'mock/store/state-file.test.ts': 9,
};

/** Files that spend most of their time waiting out a timeout of the process they test. */
const WAITING = new Set(['test/e2e/stalled-bodies.test.ts', 'test/mcp/stalled-bodies.test.ts']);

/** Three workers, as vitest.config.ts runs them. */
const WORKERS = 3;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      if (cached && !cached.failed) return cached.duration;
      return (SECONDS[path] ?? 0) * 1000;
    };
    const size = (spec: TestSpecification): number =>
      this.ctx.cache.getFileStats(`${spec.project.name}:${relative(root, spec.moduleId)}`)?.size ?? 0;
    const longestFirst = [...files].sort((a, b) => weight(b) - weight(a) || size(b) - size(a));
    const isWaiting = (spec: TestSpecification) => WAITING.has(relative(root, spec.moduleId));
    return interleave(
      longestFirst.filter((f) => !isWaiting(f)),
      longestFirst.filter(isWaiting),
      weight,
    );
  }
}

/**
 * The order the workers would take `working` and `waiting` files in, by their weights, when a worker
 * that comes free takes the next waiting file only if no other is running.
 */
function interleave<T>(working: T[], waiting: T[], weight: (file: T) => number): T[] {
  const order: T[] = [];
  const free = Array<number>(WORKERS).fill(0);
  let waitingUntil = 0;
  while (working.length > 0 || waiting.length > 0) {
    const now = Math.min(...free);
    const worker = free.indexOf(now);
    const takeWaiting = waiting.length > 0 && (waitingUntil <= now || working.length === 0);
    const file = (takeWaiting ? waiting.shift() : working.shift()) as T;
    free[worker] = now + weight(file);
    if (takeWaiting) waitingUntil = free[worker];
    order.push(file);
  }
  return order;
}
