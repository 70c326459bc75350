import { Counter, Histogram, type Registry } from 'prom-client';

/** What the provider client reports on the service's /metrics (README: Metrics). */
export interface ProviderMetrics {
  calls: Counter<'endpoint' | 'outcome'>;
  duration: Histogram<'endpoint'>;
  pacerWait: Histogram<'endpoint'>;
  quotaReads: Counter<'source'>;
}

export function providerMetrics(registry?: Registry): ProviderMetrics {
  const registers = registry ? [registry] : [];
  return {
    calls: new Counter({
      name: 'parcel_provider_calls_total',
      help: 'Calls to the parcel provider by endpoint and outcome (ok, invalid_key, api_error, circuit_open)',
      labelNames: ['endpoint', 'outcome'],
      registers,
    }),
    duration: new Histogram({
      name: 'parcel_provider_call_seconds',
      help: 'Parcel provider HTTP call latency, pacing excluded',
      labelNames: ['endpoint'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
      registers,
    }),
    pacerWait: new Histogram({
      name: 'parcel_provider_pacer_wait_seconds',
      help: 'Time a provider call waited for its API key’s rate-limit slot',
      labelNames: ['endpoint'],
      buckets: [0.001, 0.01, 0.1, 0.34, 1, 2.5, 5, 15],
      registers,
    }),
    quotaReads: new Counter({
      name: 'parcel_quota_reads_total',
      help: 'Dashboard quota reads by source: provider (one call shared by concurrent readers) or cache',
      labelNames: ['source'],
      registers,
    }),
  };
}
