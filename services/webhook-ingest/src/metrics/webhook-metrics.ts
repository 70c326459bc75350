import { AppError, isMongoUnreachable } from '@inventory/platform';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Outcome } from '../store/webhook-event.js';
import type { IngestAnswer, IngestWebhook } from '../use-cases/ingest-webhook.js';
import type { Backlog } from '../workers/backlog.js';
import type { ProcessWebhookEvent } from '../use-cases/process-webhook-event.js';

/**
 * What operators watch (README: Metrics): provider webhooks received by how they were answered,
 * and processed by result. Counted around the two use cases, which stay free of metrics.
 */
export class WebhookMetrics {
  private readonly received: Counter<'result'>;
  private readonly processed: Counter<'result'>;

  constructor(private readonly registry: Registry) {
    this.received = new Counter({
      name: 'webhook_ingest_received_total',
      help: 'Provider webhooks received, by answer: accepted (stored for processing), invalid_signature, invalid_body (both stored as failed), unknown_address, unavailable (signature not checkable or MongoDB unreachable: the provider retries), backlog_full (refused at the backlog bound: the provider retries), error',
      labelNames: ['result'],
      registers: [registry],
    });
    this.processed = new Counter({
      name: 'webhook_ingest_processed_total',
      help: 'Stored webhooks processed, by result: processed, ignored, failed (final), retry (will be tried again), lost (lease taken over by another replica)',
      labelNames: ['result'],
      registers: [registry],
    });
  }

  /** The rows waiting for the job, as last counted (the count stops at the bound), and the bound. */
  watchBacklog(backlog: Pick<Backlog, 'size' | 'limit'>): void {
    const registry = this.registry;
    new Gauge({
      name: 'webhook_ingest_backlog',
      help: 'Stored webhooks waiting for their result, as last counted; counted up to webhook_ingest_backlog_limit only',
      registers: [registry],
      collect() {
        this.set(backlog.size);
      },
    });
    new Gauge({
      name: 'webhook_ingest_backlog_limit',
      help: 'Waiting webhooks at which ingest refuses new pushes with 503 (WEBHOOK_BACKLOG_LIMIT)',
      registers: [registry],
      collect() {
        this.set(backlog.limit);
      },
    });
  }

  /** The ingest use case, counting each webhook by its answer. */
  countIngest(useCase: IngestWebhook): IngestWebhook {
    const execute = useCase.execute.bind(useCase);
    return Object.assign(Object.create(useCase) as IngestWebhook, {
      execute: async (...args: Parameters<IngestWebhook['execute']>): Promise<IngestAnswer> => {
        try {
          const answer = await execute(...args);
          this.received.inc({ result: answer.rejection || 'accepted' });
          return answer;
        } catch (error) {
          this.received.inc({ result: ingestFailure(error) });
          throw error;
        }
      },
    });
  }

  /** The processing use case, counting each attempt by its result. */
  countProcessing(useCase: ProcessWebhookEvent): ProcessWebhookEvent {
    const execute = useCase.execute.bind(useCase);
    return Object.assign(Object.create(useCase) as ProcessWebhookEvent, {
      execute: async (
        ...args: Parameters<ProcessWebhookEvent['execute']>
      ): Promise<Outcome | 'retry' | 'lost'> => {
        const result = await execute(...args);
        this.processed.inc({ result: typeof result === 'string' ? result : result.result });
        return result;
      },
    });
  }
}

function ingestFailure(error: unknown): string {
  // The gRPC boundary answers it UNAVAILABLE (ADR 0714): the provider retries, as for a signature.
  if (isMongoUnreachable(error)) return 'unavailable';
  if (!(error instanceof AppError)) return 'error';
  if (error.reason === 'not_found') return 'unknown_address';
  if (error.reason === 'service_unavailable') return 'unavailable';
  if (error.reason === 'webhook_backlog_full') return 'backlog_full';
  return 'error';
}
