import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planFromEnv, SERVICES } from './plan.js';
import { gatewayProcess, infraProcesses, infraUrls, serviceProcesses } from './system-processes.js';

const envOf = (env: NodeJS.ProcessEnv, name: string) => {
  const plan = planFromEnv(env, '/repo');
  const specs = serviceProcesses(plan, '/repo', infraUrls(plan));
  return specs.find((spec) => spec.name === name)!.env!;
};

describe('serviceProcesses', () => {
  it('gives parcel-tracking the Redis the gateway uses (its provider pacing window lives there)', () => {
    const plan = planFromEnv({ DEV_PORT_BASE: '30000' }, '/repo');
    const gateway = gatewayProcess(plan, '/repo', infraUrls(plan));
    expect(envOf({ DEV_PORT_BASE: '30000' }, 'parcel-tracking').REDIS_URL).toBe(
      'redis://127.0.0.1:30379',
    );
    expect(gateway.env!.REDIS_URL).toBe('redis://127.0.0.1:30379');
    expect(envOf({ REDIS_URL: 'redis://cache:6379' }, 'parcel-tracking').REDIS_URL).toBe(
      'redis://cache:6379',
    );
  });
});

describe('gatewayProcess', () => {
  it('lets 127.0.0.1 and localhost reach the development tenant (a development-only setting)', () => {
    const plan = planFromEnv({ DEV_TENANT_SLUG: 'demo' }, '/repo');
    const env = gatewayProcess(plan, '/repo', infraUrls(plan)).env!;
    expect(env.DEV_LOOPBACK_TENANT).toBe('demo');
    expect(env.NODE_ENV).toBeUndefined();
  });
});

describe('DEV_RUN', () => {
  const argsOf = (env: NodeJS.ProcessEnv, repoRoot: string) => {
    const plan = planFromEnv(env, repoRoot);
    const urls = infraUrls(plan);
    return Object.fromEntries(
      [
        ...serviceProcesses(plan, repoRoot, urls),
        gatewayProcess(plan, repoRoot, urls),
        ...infraProcesses(plan, repoRoot).filter((spec) => spec.name === 'mongo'),
      ].map((spec) => [spec.name, spec.args]),
    );
  };

  it('runs the sources through tsx by default', () => {
    const args = argsOf({}, '/repo');
    expect(args.gateway).toEqual([
      '--conditions=development',
      '--import',
      'tsx',
      '/repo/gateway/src/main.ts',
    ]);
    expect(args.identity!.at(-1)).toBe('/repo/services/identity/src/main.ts');
    expect(args.mongo!.slice(0, 4)).toEqual([
      '--conditions=development',
      '--import',
      'tsx',
      '/repo/libs/mongo-embedded/src/cli/main.ts',
    ]);
  });

  it('compiled: every part runs its built JavaScript with plain node, as the production image runs it', () => {
    const repoRoot = mkdtempSync(join(tmpdir(), 'dev-run-'));
    try {
      const entries = [
        'gateway/dist/main.js',
        'libs/mongo-embedded/dist/cli/main.js',
        ...SERVICES.map((name) => `services/${name}/dist/main.js`),
      ];
      for (const entry of entries) {
        mkdirSync(join(repoRoot, entry, '..'), { recursive: true });
        writeFileSync(join(repoRoot, entry), '');
      }
      const args = argsOf({ DEV_RUN: 'compiled' }, repoRoot);
      expect(args.gateway).toEqual([join(repoRoot, 'gateway/dist/main.js')]);
      expect(args.catalog).toEqual([join(repoRoot, 'services/catalog/dist/main.js')]);
      expect(args.mongo!.slice(0, 2)).toEqual([
        join(repoRoot, 'libs/mongo-embedded/dist/cli/main.js'),
        '--port',
      ]);
    } finally {
      rmSync(repoRoot, { recursive: true, force: true });
    }
  });

  it('compiled without a build: refuses to start, saying what to run', () => {
    const repoRoot = mkdtempSync(join(tmpdir(), 'dev-run-'));
    try {
      expect(() => argsOf({ DEV_RUN: 'compiled' }, repoRoot)).toThrow(
        /services\/identity\/dist\/main\.js, which is missing: npm run build/,
      );
    } finally {
      rmSync(repoRoot, { recursive: true, force: true });
    }
  });

  it('refuses a value that is neither source nor compiled, naming the variable', () => {
    expect(() => planFromEnv({ DEV_RUN: 'dist' }, '/repo')).toThrow(
      'DEV_RUN must be source or compiled, got "dist"',
    );
  });
});
