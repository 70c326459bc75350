import {
  HealthClient,
  HealthCheckResponse_ServingStatus,
} from '@inventory/contracts/grpc/health/v1/health.js';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { createGrpcClient, type ServiceRuntime } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';

describe('webhook-ingest boot', () => {
  let infra: TestInfra;
  let service: ServiceRuntime;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    service = await bootstrap({
      MONGO_URL: infra.mongoUrl,
      MONGO_DB: infra.dbName('webhook_ingest'),
      NATS_URL: infra.natsUrl,
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await service?.stop();
    await infra?.stop();
  });

  it('serves grpc.health.v1 as SERVING and stops cleanly', async () => {
    const health = createGrpcClient(HealthClient, service.grpc!.address);
    expect((await health.call.check({ service: '' })).status).toBe(
      HealthCheckResponse_ServingStatus.SERVING,
    );
    health.close();
  });
});
