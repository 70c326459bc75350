import { Counter, Histogram, type Registry } from 'prom-client';

/** What operators watch: outcomes (drops included) and attempt latency. */
export class DeliveryMetrics {
  private readonly outcomes: Counter<'outcome'>;
  private readonly attempts: Histogram<'result'>;
  private readonly withheldEvents: Counter<'event'>;

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
    this.withheldEvents = new Counter({
      name: 'outbound_webhook_events_withheld_total',
      help: "Events not sent to a subscription because its owner lacks the event's permission",
      labelNames: ['event'],
      registers: [registry],
    });
  }

  withheld(event: string): void {
    this.withheldEvents.inc({ event });
  }

  settled(outcome: 'succeeded' | 'failed' | 'dropped' | 'skipped'): void {
    this.outcomes.inc({ outcome });
  }

  attempt(result: string, durationMs: number): void {
    this.attempts.observe({ result }, durationMs / 1000);
  }
}
