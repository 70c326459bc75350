import { randomBytes } from 'node:crypto';
import { IDENTITY_STREAM, tokenRequestsLogged } from '@inventory/events';
import {
  consumerDrained,
  startOtlpReceiver,
  waitFor,
  type OtlpReceiver,
} from '@inventory/local-infra';
import { encodeEvent, EventPublisher } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggedRequest, startIdentity, tokenOwner, type IdentityUnderTest } from './harness.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** A request-log batch names many requests: its consumer span links to each traced one (ADR 0711). */
describe('request-log batch trace context', () => {
  let receiver: OtlpReceiver;
  let identity: IdentityUnderTest;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    identity = await startIdentity({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
  });
  afterAll(async () => {
    await identity?.stop();
    await receiver?.stop();
  });

  it("processes a batch in a CONSUMER span under the gateway's publish, linked to every traced entry", async () => {
    const { client, service } = identity;
    const owner = await tokenOwner(client, 'log-trace');
    const tenantId = owner.tenant.id;
    const requests = [
      { traceId: hex(16), spanId: hex(8) },
      { traceId: hex(16), spanId: hex(8) },
    ];
    const entry = (id: string, traceparent?: string) => loggedRequest(owner, id, { traceparent });
    const batch = encodeEvent(tokenRequestsLogged, {
      tenantId,
      payload: {
        requests: [
          entry('traced-1', `00-${requests[0]!.traceId}-${requests[0]!.spanId}-01`),
          entry('untraced'),
          entry('traced-2', `00-${requests[1]!.traceId}-${requests[1]!.spanId}-01`),
        ],
      },
    });
    const publish = { traceId: hex(16), spanId: hex(8) };
    await new EventPublisher(service.jetstream).publishEncoded(
      tokenRequestsLogged.subject,
      batch.id,
      batch.bytes,
      '',
      { traceparent: `00-${publish.traceId}-${publish.spanId}-01` },
    );
    await consumerDrained(service.jetstreamManager, IDENTITY_STREAM.name, 'identity-request-log');
    expect(
      await service.mongo.collection('token_requests').countDocuments({ tenant_id: tenantId }),
    ).toBe(3);

    const span = await waitFor(async () => {
      await service.tracing.flush();
      return receiver.spans.find((candidate) => candidate.traceId === publish.traceId);
    }, "the batch's consumer span");
    expect(span).toMatchObject({
      name: `${tokenRequestsLogged.subject} process`,
      kind: 5, // CONSUMER
      parentSpanId: publish.spanId,
      attributes: { 'messaging.outcome': 'handled' },
      links: requests,
    });
  });
});
