import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TokenRequestLogged } from '@inventory/contracts/events/v1/identity.js';
import { tokenRequestsLogged } from '@inventory/events';
import {
  currentContext,
  encodeEvent,
  endSpan,
  isTracing,
  linksTo,
  maskSecrets,
  sampledTraceparent,
  SpanKind,
  startSpan,
  traceHeaders,
  type Logger,
} from '@inventory/platform';
import { headers as natsHeaders, type NatsConnection } from 'nats';

export interface RequestLogOptions {
  /** Longest an entry waits before its batch is published. */
  flushIntervalMs?: number;
  /** A tenant's batch is published as soon as it holds this many entries. */
  maxBatch?: number;
  /** Entries kept while NATS is unreachable; the oldest are dropped beyond it (logged). */
  maxBuffered?: number;
}

/**
 * Every token-authenticated request is logged for identity's request history and
 * usage analytics, off the hot path: entries are buffered per tenant after the
 * response and published as one JetStream message per tenant every
 * `flushIntervalMs` (or `maxBatch` entries). A plain publish onto the stream's
 * subject: JetStream stores it and no ack is awaited; the message id is the
 * batch's event id, so a repeat is stored once.
 */
export class RequestLogPublisher {
  private readonly buffers = new Map<string, TokenRequestLogged[]>();
  private buffered = 0;
  private timer?: NodeJS.Timeout;
  private lastWarning = 0;
  private readonly flushIntervalMs: number;
  private readonly maxBatch: number;
  private readonly maxBuffered: number;

  constructor(
    private readonly nats: NatsConnection,
    private readonly logger: Logger,
    options: RequestLogOptions = {},
  ) {
    // Each batch costs identity a message, an insert and a `last_used_at` update, and those
    // per-batch round trips were most of its CPU per logged request (ADR 0110): at 1,000
    // requests/s a quarter-second window makes 4 batches a second instead of 10.
    this.flushIntervalMs = options.flushIntervalMs ?? 250;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxBuffered = options.maxBuffered ?? 50_000;
  }

  record(tenantId: string, entry: TokenRequestLogged): void {
    if (this.buffered >= this.maxBuffered) {
      this.warn(new Error(`request log buffer full (${this.maxBuffered}); dropping an entry`));
      return;
    }
    const buffer = this.buffers.get(tenantId) ?? [];
    buffer.push(entry);
    this.buffers.set(tenantId, buffer);
    this.buffered++;
    if (buffer.length >= this.maxBatch) this.publish(tenantId);
    else this.timer ??= setTimeout(() => this.flush(), this.flushIntervalMs);
  }

  /** Publishes everything buffered (also called on shutdown). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const tenantId of [...this.buffers.keys()]) this.publish(tenantId);
  }

  private publish(tenantId: string): void {
    const requests = this.buffers.get(tenantId);
    if (!requests?.length) return;
    try {
      const { id, bytes } = encodeEvent(tokenRequestsLogged, { tenantId, payload: { requests } });
      const span = batchSpan(id, requests);
      const headers = natsHeaders();
      headers.set('Nats-Msg-Id', id);
      for (const [key, value] of Object.entries(traceHeaders(span))) headers.set(key, value);
      try {
        this.nats.publish(tokenRequestsLogged.subject, bytes, { headers });
      } catch (error) {
        endSpan(span, error);
        throw error;
      }
      endSpan(span);
      this.buffers.delete(tenantId);
      this.buffered -= requests.length;
    } catch (error) {
      // Kept for the next flush: a NATS outage delays the log instead of losing it.
      this.warn(error);
      this.timer ??= setTimeout(() => this.flush(), 1_000);
    }
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.logger.warn({ err: error }, 'request log entries not published yet');
  }
}

/**
 * One message holds many requests, so no single `traceparent` describes it: the batch's publish
 * is a span of its own (the parent of identity's span for it) linked to every traced request in
 * it, as OpenTelemetry's messaging conventions do for batches (ADR 0711).
 */
function batchSpan(id: string, requests: TokenRequestLogged[]) {
  if (!isTracing()) return undefined;
  return startSpan(`${tokenRequestsLogged.subject} publish`, {
    kind: SpanKind.PRODUCER,
    links: linksTo(requests.map((request) => request.traceparent)),
    attributes: {
      'messaging.system': 'nats',
      'messaging.destination.name': tokenRequestsLogged.subject,
      'messaging.message.id': id,
      'messaging.batch.message_count': requests.length,
    },
  });
}

export function registerRequestLog(app: FastifyInstance, publisher: RequestLogPublisher): void {
  // Callback style: synchronous work, so no promise per request (see http/metrics.ts).
  app.addHook('onResponse', (request, reply, done) => {
    const auth = request.auth;
    if (auth?.kind !== 'token') return done();
    publisher.record(request.tenant.id, {
      id: randomUUID(),
      token_id: auth.tokenId,
      user_id: auth.user.id,
      method: request.method,
      route: request.routeOptions.url ?? '',
      path: maskSecrets(request.url.split('?')[0] ?? '').slice(0, 2048),
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
      ip: request.ip,
      user_agent: String(request.headers['user-agent'] ?? '').slice(0, 512),
      at: new Date(),
      // Only a sampled request's: the untraced default adds no byte to the entry.
      traceparent: isTracing() ? sampledTraceparent(currentContext()?.span) : undefined,
    });
    done();
  });
  app.addHook('onClose', async () => publisher.flush());
}
