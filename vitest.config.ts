import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.ts';

/** Tests that start the real processes (`lmskit mock`, `lmskit mcp`) or use a browser. */
const PROCESS_AND_BROWSER = ['test/e2e/**/*.test.ts', 'test/mcp/**/*.test.ts', '**/*.browser.test.ts'];
/**
 * The packed kit installed into a new project (`npm run test:package`): a release's check, about a
 * sixth of the whole suite's CPU (a pack builds the declarations with tsc, the install, vitest and tsc
 * in that project), so `npm test` leaves it to CI, which runs it as a step of its own (.ci/run).
 */
const PACKAGE = ['test/package/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Spies are put back after each test, so no test sees another's (the quick project shares modules).
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
    // Both projects' files in one queue, the longest first (test/sequencer.ts), so the two workers
    // finish together instead of one running a long file alone at the end.
    sequence: { sequencer: LongestFirst },
    // `npm test` runs both projects; `npm run test:quick` only the first, for the edit–test loop.
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: [
            'test/**/*.test.ts',
            'mock/**/*.test.ts',
            'mcp-server/**/*.test.ts',
            'conformance/**/*.test.ts',
            'lib/**/*.test.ts',
            'package/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...PROCESS_AND_BROWSER, ...PACKAGE],
        },
      },
      {
        extends: true,
        // Starting processes and a browser on a busy machine can take many seconds; the timeout only
        // guards against a hang, the tests themselves wait on state.
        test: { name: 'process-and-browser', include: PROCESS_AND_BROWSER, testTimeout: 120_000 },
      },
      { extends: true, test: { name: 'package', include: PACKAGE, testTimeout: 120_000 } },
    ],
  },
});
