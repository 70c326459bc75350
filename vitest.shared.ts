import { defineConfig } from 'vitest/config';

// Workspace packages export their TypeScript sources under the `development` condition,
// so tests run the real code without a build step.
export function projectTestConfig(options: { testTimeout?: number; hookTimeout?: number } = {}) {
  return defineConfig({
    // No `module` condition: Vitest hands these to Node's own loader too (--conditions), and some
    // packages' `module` builds (OpenTelemetry's) import files without extensions, for bundlers.
    resolve: { conditions: ['development', 'node', 'default'] },
    ssr: { resolve: { conditions: ['development', 'node', 'default'] } },
    test: {
      environment: 'node',
      include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
      testTimeout: options.testTimeout ?? 30_000,
      hookTimeout: options.hookTimeout ?? 60_000,
      pool: 'forks',
    },
  });
}
