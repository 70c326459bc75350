import { ObjectId } from 'bson';
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

/** Bytes kept free under the server's payload limit for a message's headers. */
const HEADER_ROOM = 8 * 1024;

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
 * batch's event id, so a repeat is stored once. A batch the server's payload
 * limit would refuse goes as several messages.
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
    // Each batch costs identity a message, an insert and a `last_used_at` update, and MongoDB and
    // NATS a command and a message: a batch a second instead of four took identity and MongoDB from
    // 54 to 43 µs per logged request at 1,000 requests/s (ADR 0723, after ADR 0110's 250 ms).
    this.flushIntervalMs = options.flushIntervalMs ?? 1_000;
    this.maxBatch = options.maxBatch ?? 1_000;
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
    let published = 0;
    try {
      for (const message of this.messagesOf(tenantId, requests)) {
        this.send(message.id, message.bytes, message.requests);
        published += message.requests.length;
      }
    } catch (error) {
      // Kept for the next flush: a NATS outage delays the log instead of losing it.
      this.warn(error);
      this.timer ??= setTimeout(() => this.flush(), 1_000);
    }
    this.buffered -= published;
    if (published === requests.length) this.buffers.delete(tenantId);
    else this.buffers.set(tenantId, requests.slice(published));
  }

  /**
   * The batch as one message, or halved until each fits the server's payload limit. An entry is
   * at most a few kilobytes (its path and user agent are cut at 2,048 and 512 characters), so one
   * always fits.
   */
  private *messagesOf(
    tenantId: string,
    requests: TokenRequestLogged[],
  ): Generator<{ id: string; bytes: Uint8Array; requests: TokenRequestLogged[] }> {
    const { id, bytes } = encodeEvent(tokenRequestsLogged, { tenantId, payload: { requests } });
    if (bytes.length <= this.payloadLimit() || requests.length === 1) {
      yield { id, bytes, requests };
      return;
    }
    const half = requests.length >> 1;
    yield* this.messagesOf(tenantId, requests.slice(0, half));
    yield* this.messagesOf(tenantId, requests.slice(half));
  }

  /** The server's limit (1 MiB unless configured), less room for the headers. */
  private payloadLimit(): number {
    return (this.nats.info?.max_payload ?? 1024 * 1024) - HEADER_ROOM;
  }

  private send(id: string, bytes: Uint8Array, requests: TokenRequestLogged[]): void {
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

/**
 * A request entry's id: unique, and increasing within one replica (an ObjectId: seconds, this
 * process, a counter). Identity stores it as `_id`, the history's tie-break after `at`, so two
 * requests answered in the same millisecond are listed in the order they were answered.
 */
export const requestEntryId = (): string => new ObjectId().toHexString();

export function registerRequestLog(app: FastifyInstance, publisher: RequestLogPublisher): void {
  // Callback style: synchronous work, so no promise per request (see http/metrics.ts).
  app.addHook('onResponse', (request, reply, done) => {
    const auth = request.auth;
    if (auth?.kind !== 'token') return done();
    publisher.record(request.tenant.id, {
      id: requestEntryId(),
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
