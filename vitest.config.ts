import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.ts';

/** Every file of the kit's tests but the packed kit's. */
const SOURCES = [
  'test/**/*.test.ts',
  'mock/**/*.test.ts',
  'mcp-server/**/*.test.ts',
  'conformance/**/*.test.ts',
  'lib/**/*.test.ts',
  'package/**/*.test.ts',
];
/** Tests that start the real processes (`lmskit mock`, `lmskit mcp`) or use a browser. */
const PROCESS_AND_BROWSER = ['test/e2e/**/*.test.ts', 'test/mcp/**/*.test.ts', '**/*.browser.test.ts'];
/**
 * The packed kit installed into a new project (`npm run test:package`): a release's check, about a
 * sixth of the whole suite's CPU (a pack builds the declarations with tsc, the install, vitest and tsc
 * in that project), so `npm test` leaves it to CI, which runs it as a step of its own (.ci/run).
 */
const PACKAGE = ['test/package/**/*.test.ts'];

/**
 * `npm test` runs every file but the packed kit's in one project; `npm run test:quick` (`--mode quick`)
 * the same project without the files that start a process or a browser, for the edit–test loop.
 */
export default defineConfig(({ mode }) => {
  const quick = mode === 'quick';
  return {
    test: {
      // A bound that only turns a hang into a failure: starting processes and a browser on a busy
      // machine can take many seconds, and the tests themselves wait on state.
      testTimeout: quick ? 30_000 : 120_000,
      // Spies are put back after each test, so no test sees another's (the files share modules).
      restoreMocks: true,
      // The files import the same modules (the contracts compiled by ajv, the domain, the harness): each
      // worker imports them once instead of once a file, about 40 s of a 2-core run for the quick files
      // alone. Nothing in them keeps state between files: each test makes its own platform, harness,
      // mock process or browser.
      isolate: false,
      hookTimeout: 180_000,
      // Two cores here, and three workers: a file that waits (a stalled body waits out the mock's
      // request timeout, a lockout its window) leaves its core to the other two.
      maxWorkers: 3,
      // Every file in one queue, the longest first (test/sequencer.ts), so the workers finish together
      // instead of one running a long file alone at the end.
      sequence: { sequencer: LongestFirst },
      projects: [
        {
          // One project, not one for the process files and one for the rest: a worker runs the files of
          // one project only, so with two the queue's switches between them started new workers, each
          // importing the shared modules again. The whole suite on a quiet 2-core machine: 406 s and
          // 741 CPU-s as two projects, 371 s and 672 CPU-s as one.
          extends: true,
          test: {
            name: 'kit',
            include: SOURCES,
            exclude: [...configDefaults.exclude, ...PACKAGE, ...(quick ? PROCESS_AND_BROWSER : [])],
          },
        },
        // `npm run test:package`.
        { extends: true, test: { name: 'package', include: PACKAGE } },
      ],
    },
  };
});
