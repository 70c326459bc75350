import { randomBytes } from 'node:crypto';
import { tokenRequestsLogged } from '@inventory/events';
import {
  startOtlpReceiver,
  startTestInfra,
  type OtlpReceiver,
  type TestInfra,
  waitFor,
} from '@inventory/local-infra';
import {
  connectNats,
  createLogger,
  decodeEnvelope,
  decodeEvent,
  enterContext,
  startTracing,
  type TracingHandle,
} from '@inventory/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Msg, NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerHttpTracing } from '../http/tracing.js';
import { registerRequestLog, RequestLogPublisher } from './request-log.js';

const traceId = () => randomBytes(16).toString('hex');
const spanId = () => randomBytes(8).toString('hex');

/**
 * The gateway's request-log hooks as app.ts orders them (request context, request span, auth,
 * request log), with the auth hook's outcome set directly: a token-authenticated request.
 */
async function startApp(publisher: RequestLogPublisher): Promise<FastifyInstance> {
  const app = Fastify();
  app.addHook('onRequest', async (request) => {
    enterContext({ requestId: request.id });
  });
  registerHttpTracing(app);
  app.decorateRequest('tenant', null as never);
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    request.tenant = { id: 't1', slug: 't1', name: 'T1', host: 'h', base_url: 'https://h' };
    request.auth = {
      kind: 'token',
      tokenId: 7,
      user: { id: 3, isOwner: true, permissions: [] },
      scopes: [],
    };
  });
  registerRequestLog(app, publisher);
  app.get('/api/user', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('request-log batches and trace context (ADR 0711)', () => {
  let infra: TestInfra;
  let nats: NatsConnection;
  let receiver: OtlpReceiver;
  const messages: Msg[] = [];

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false, mongo: false });
    receiver = await startOtlpReceiver();
    nats = await connectNats(infra.natsUrl, 'request-log-tracing-test');
    nats.subscribe(tokenRequestsLogged.subject, {
      callback: (_e, message) => messages.push(message),
    });
  });
  afterAll(async () => {
    await nats?.close();
    await receiver?.stop();
    await infra?.stop();
  });

  const batch = (message: Msg) =>
    decodeEvent(tokenRequestsLogged, decodeEnvelope(message.data)).payload.requests;

  /** Two requests (a caller's sampled traceparent, an unsampled one), flushed as one batch. */
  async function logTwoRequests() {
    messages.length = 0;
    // An interval no run reaches: the batch goes on the explicit flush only.
    const publisher = new RequestLogPublisher(
      nats,
      createLogger({ service: 'test', level: 'silent' }),
      { flushIntervalMs: 600_000 },
    );
    const app = await startApp(publisher);
    const sampled = traceId();
    const unsampled = traceId();
    for (const [trace, flags] of [
      [sampled, '01'],
      [unsampled, '00'],
    ] as const) {
      const response = await app.inject({
        url: '/api/user',
        headers: { traceparent: `00-${trace}-${spanId()}-${flags}` },
      });
      expect(response.statusCode).toBe(200);
    }
    publisher.flush();
    await expect.poll(() => messages.length).toBe(1);
    await app.close();
    return { sampled, unsampled, message: messages[0]! };
  }

  describe('with tracing on', () => {
    let tracing: TracingHandle;
    beforeAll(() => {
      tracing = startTracing('gateway', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    });
    afterAll(async () => {
      await tracing?.shutdown();
    });

    it("an entry carries its sampled request's span; the batch's publish span links to it and parents the message", async () => {
      const { sampled, unsampled, message } = await logTwoRequests();
      const requestSpan = await waitFor(async () => {
        await tracing.flush();
        return receiver.spans.find((span) => span.traceId === sampled);
      }, 'the request span');
      expect(requestSpan.name).toBe('GET /api/user');

      const [tracedEntry, untracedEntry] = batch(message);
      expect(tracedEntry!.traceparent).toBe(`00-${sampled}-${requestSpan.spanId}-01`);
      // The caller chose not to sample: its entry carries nothing.
      expect(untracedEntry!.traceparent).toBeUndefined();
      expect(Buffer.from(message.data).includes(unsampled)).toBe(false);

      const publishSpan = await waitFor(async () => {
        await tracing.flush();
        return receiver.spans.find(
          (span) => span.name === `${tokenRequestsLogged.subject} publish`,
        );
      }, 'the batch publish span');
      expect(publishSpan).toMatchObject({
        kind: 4, // PRODUCER
        parentSpanId: '',
        // The unsampled request is no link: only what was recorded can be followed.
        links: [{ traceId: sampled, spanId: requestSpan.spanId }],
        attributes: { 'messaging.batch.message_count': 2 },
      });
      expect(message.headers?.get('traceparent')).toBe(
        `00-${publishSpan.traceId}-${publishSpan.spanId}-01`,
      );
    });
  });

  describe('with tracing off', () => {
    it("adds nothing: no traceparent in the entries' bytes, no trace header on the message", async () => {
      const { sampled, message } = await logTwoRequests();
      const entries = batch(message);
      expect(entries).toHaveLength(2);
      expect(entries.map((entry) => entry.traceparent)).toEqual([undefined, undefined]);
      // Field 12 (tag 0x62) never written: the caller's trace id is nowhere in the message.
      expect(Buffer.from(message.data).includes(sampled)).toBe(false);
      expect(message.headers?.get('traceparent')).toBeFalsy();
      expect(message.headers?.get('Nats-Msg-Id')).toBeTruthy();
    });
  });
});
