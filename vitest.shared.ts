import { defineConfig } from 'vitest/config';

// Workspace packages export their TypeScript sources under the `development` condition,
// so tests run the real code without a build step.
export function projectTestConfig(options: { testTimeout?: number; hookTimeout?: number } = {}) {
  return defineConfig({
    resolve: { conditions: ['development', 'module', 'node', 'default'] },
    ssr: { resolve: { conditions: ['development', 'module', 'node', 'default'] } },
    test: {
      environment: 'node',
      include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
      testTimeout: options.testTimeout ?? 30_000,
      hookTimeout: options.hookTimeout ?? 60_000,
      pool: 'forks',
    },
  });
}
