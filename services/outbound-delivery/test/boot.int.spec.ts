import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { describeFailedStart, describeServiceBoot } from '@inventory/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';

describeServiceBoot(
  'outbound-delivery',
  (env) => bootstrap(env),
  {},
  {
    redis: true,
    metrics: ['outbound_webhook_deliveries_total', 'outbound_webhook_attempt_seconds'],
    retention: [{ collection: 'deliveries', field: 'created_at', days: 90 }],
  },
);

describeFailedStart('outbound-delivery', (env) => bootstrap(env), {}, { redis: true });

describe('outbound-delivery start-up', () => {
  let infra: TestInfra;
  beforeAll(async () => {
    infra = await startTestInfra({ redis: false, mongo: false });
  });
  afterAll(() => infra?.stop());

  it('refuses to start with a bad configuration variable, naming it', async () => {
    const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', main], {
      env: { PATH: process.env.PATH, MONGO_URL: 'not-a-url', NATS_URL: infra.natsUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(78);
    expect(stderr).toContain('MONGO_URL');
  });
});
