import { Counter, Histogram, type Registry } from 'prom-client';

/** What operators watch: outcomes (drops included) and attempt latency. */
export class DeliveryMetrics {
  private readonly outcomes: Counter<'outcome'>;
  private readonly attempts: Histogram<'result'>;

  constructor(registry: Registry) {
    this.outcomes = new Counter({
      name: 'outbound_webhook_deliveries_total',
      help: 'Outbound webhook deliveries settled, by outcome (succeeded, failed, dropped, skipped)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    this.attempts = new Histogram({
      name: 'outbound_webhook_attempt_seconds',
      help: 'Duration of outbound webhook attempts, by result (2xx, other status, error)',
      labelNames: ['result'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15],
      registers: [registry],
    });
  }

  settled(outcome: 'succeeded' | 'failed' | 'dropped' | 'skipped'): void {
    this.outcomes.inc({ outcome });
  }

  attempt(result: string, durationMs: number): void {
    this.attempts.observe({ result }, durationMs / 1000);
  }
}
