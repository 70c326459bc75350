import { afterAll, beforeAll } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { clientOf, startHarness, type Service } from './harness.js';
import { ProviderPushes } from './provider-pushes.js';

export interface IngestSuite {
  h: Awaited<ReturnType<typeof startHarness>>;
  service: Service;
  client: ReturnType<typeof clientOf>;
  pushes: ProviderPushes;
}

/**
 * The shared set-up of the suites that run the service in-process, one per file: the
 * infrastructure and a fake parcel-tracking, the service, a gRPC client to it and the provider
 * simulator's pushes, with `extraEnv` over the harness's settings. Its fields are set once
 * `beforeAll` has run.
 */
export function useIngestSuite(extraEnv: NodeJS.ProcessEnv = {}): IngestSuite {
  const suite = {} as IngestSuite;
  beforeAll(async () => {
    suite.h = await startHarness(extraEnv);
    suite.service = await bootstrap(suite.h.env);
    suite.client = clientOf(suite.service.grpc!.address);
    suite.pushes = await ProviderPushes.start();
  });
  afterAll(async () => {
    suite.client?.close();
    await suite.pushes?.stop();
    await suite.service?.stop();
    await suite.h?.fake.stop();
    await suite.h?.infra.stop();
  });
  return suite;
}
