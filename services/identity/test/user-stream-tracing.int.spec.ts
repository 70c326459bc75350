import { randomBytes } from 'node:crypto';
import type {
  StreamUsersRequest,
  StreamUsersResponse,
} from '@inventory/contracts/identity/v1/identity.js';
import { startOtlpReceiver, type OtlpReceiver } from '@inventory/local-infra';
import { contextToMetadata, newRequestId } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startIdentity, type IdentityUnderTest } from './harness.js';

/** ADR 0711's gap, closed: a look-up message that carries a traceparent is a server span of its own. */
describe('StreamUsers trace context', () => {
  let receiver: OtlpReceiver;
  let identity: IdentityUnderTest;
  let tenantId: string;
  let userId: number;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    identity = await startIdentity({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    const { tenant } = await identity.client.call.createTenant({
      slug: 'stream-trace',
      name: '',
      custom_domains: [],
    });
    tenantId = tenant!.id;
    const { user } = await as(tenantId, undefined, () =>
      identity.client.call.createUser({
        email: 'traced@stream-trace.test',
        name: 'Traced',
        password: 'password-1',
        is_owner: true,
        permissions: [],
      }),
    );
    userId = user!.id;
  });
  afterAll(async () => {
    await identity?.stop();
    await receiver?.stop();
  });

  it("answers a traced look-up under the caller's span, and an untraced one without a span", async () => {
    const call = identity.client.client.streamUsers(
      contextToMetadata({ requestId: newRequestId(), tenantId }),
    );
    const ask = (request: StreamUsersRequest) =>
      new Promise<StreamUsersResponse>((resolve) => {
        call.once('data', resolve);
        call.write(request);
      });
    const traceId = randomBytes(16).toString('hex');
    const clientSpanId = randomBytes(8).toString('hex');
    const traced = await ask({
      correlation_id: 1,
      user_ids: [userId],
      traceparent: `00-${traceId}-${clientSpanId}-01`,
    });
    expect(traced.users.map((user) => user.id)).toEqual([userId]);
    const untraced = await ask({ correlation_id: 2, user_ids: [userId] });
    expect(untraced.users.map((user) => user.id)).toEqual([userId]);
    call.end();

    await expect
      .poll(
        async () => {
          await identity.service.tracing.flush();
          return receiver.spans.find((span) => span.traceId === traceId);
        },
        { timeout: 15_000, interval: 500 },
      )
      .toMatchObject({
        name: 'inventory.identity.v1.IdentityService/StreamUsers',
        kind: 2, // SERVER
        parentSpanId: clientSpanId,
        attributes: { 'rpc.grpc.status_code': 0 },
      });
    // Flushed above: the untraced look-up left no span of that name beside the traced one.
    expect(
      receiver.spans.filter(
        (span) => span.name === 'inventory.identity.v1.IdentityService/StreamUsers',
      ),
    ).toHaveLength(1);
  });
});
