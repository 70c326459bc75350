import { defineConfig } from 'vitest/config';

// `npm test`: every project's suite in one run. Each project keeps its own
// vitest.config.ts (used by `nx run <project>:test` too).
export default defineConfig({
  test: {
    projects: [
      'libs/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      'gateway/vitest.config.ts',
      'tools/*/vitest.config.ts',
      'test-e2e/vitest.config.ts',
      'bench/vitest.config.ts',
      'apps/*/vitest.config.ts',
    ],
    reporters: ['default', './tools/test/summary-reporter.ts'],
    // Suites start real servers and child processes; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
});
