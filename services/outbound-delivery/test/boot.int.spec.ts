import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  HealthClient,
  HealthCheckResponse_ServingStatus,
} from '@inventory/contracts/grpc/health/v1/health.js';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { createGrpcClient, type ServiceRuntime } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';

describe('outbound-delivery boot', () => {
  let infra: TestInfra;
  let service: ServiceRuntime;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    service = await bootstrap({
      MONGO_URL: infra.mongoUrl,
      MONGO_DB: infra.dbName('outbound'),
      NATS_URL: infra.natsUrl,
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service?.stop();
    await infra?.stop();
  });

  it('serves grpc.health.v1 as SERVING', async () => {
    const health = createGrpcClient(HealthClient, service.grpc!.address);
    expect((await health.call.check({ service: '' })).status).toBe(
      HealthCheckResponse_ServingStatus.SERVING,
    );
    health.close();
  });

  it('serves Prometheus metrics', async () => {
    const response = await fetch(`http://127.0.0.1:${service.metricsServerPort}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('process_cpu_user_seconds_total');
  });

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
