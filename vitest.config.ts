import { configDefaults, defineConfig } from 'vitest/config';
import LongestFirst from './test/sequencer.ts';

/** Tests that start the real processes (`lmskit mock`, `lmskit mcp`), install the packed kit, or use a browser. */
const PROCESS_AND_BROWSER = [
  'test/e2e/**/*.test.ts',
  'test/mcp/**/*.test.ts',
  'test/package/**/*.test.ts',
  '**/*.browser.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Spies are put back after each test, so no test sees another's (the quick project shares modules).
    restoreMocks: true,
    hookTimeout: 180_000,
    // Two cores here: the Redocly, tsc and browser tests each spawn processes of their own.
    maxWorkers: 2,
    // Both projects' files in one queue, the longest first (test/sequencer.ts), so the two workers
    // finish together instead of one running a long file alone at the end.
    sequence: { sequencer: LongestFirst },
    // `npm test` runs both projects; `npm run test:quick` only the first, for the edit–test loop.
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          // Its files import the same modules (the contracts compiled by ajv, the domain): each worker
          // imports them once instead of once a file, about 40 s of a 2-core run. Nothing in them keeps
          // state between files: each test makes its own platform, harness or mock.
          isolate: false,
          include: [
            'test/**/*.test.ts',
            'mock/**/*.test.ts',
            'mcp-server/**/*.test.ts',
            'conformance/**/*.test.ts',
            'lib/**/*.test.ts',
            'package/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...PROCESS_AND_BROWSER],
        },
      },
      {
        extends: true,
        // Starting processes and a browser on a busy machine can take many seconds; the timeout only
        // guards against a hang, the tests themselves wait on state.
        test: { name: 'process-and-browser', include: PROCESS_AND_BROWSER, testTimeout: 120_000 },
      },
    ],
  },
});
