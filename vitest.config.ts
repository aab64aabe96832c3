import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/**/*.test.ts',
      'mock/**/*.test.ts',
      'mcp-server/**/*.test.ts',
      'conformance/**/*.test.ts',
      'lib/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Two cores here: the Redocly, tsc and browser tests each spawn processes of their own.
    maxWorkers: 2,
  },
});
