import { randomBytes } from 'node:crypto';
import {
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type ServerDuplexStream,
} from '@grpc/grpc-js';
import {
  IdentityServiceService,
  type StreamUsersRequest,
  type StreamUsersResponse,
} from '@inventory/contracts/identity/v1/identity.js';
import { startOtlpReceiver, type OtlpReceiver } from '@inventory/local-infra';
import {
  endSpan,
  runWithContext,
  SpanKind,
  startSpan,
  startTracing,
  type TracingHandle,
} from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityAdapter } from './identity.js';
import { IdentityUserStreams } from './identity-user-streams.js';

/** A fake identity (a real gRPC server of the proto) that answers StreamUsers and keeps what came. */
async function startFakeIdentity() {
  const received: StreamUsersRequest[] = [];
  const server = new Server();
  server.addService(IdentityServiceService, {
    streamUsers: (call: ServerDuplexStream<StreamUsersRequest, StreamUsersResponse>) => {
      call.on('data', (request: StreamUsersRequest) => {
        received.push(request);
        call.write({
          correlation_id: request.correlation_id,
          users: request.user_ids.map((id) => ({
            id,
            email: `${id}@example.test`,
            name: 'User',
            is_owner: false,
            permissions: [],
            two_factor_enabled: false,
            created_at: new Date(0),
          })),
          error_code: GrpcStatus.OK,
          error_reason: '',
          error_message: '',
        });
      });
      call.on('end', () => call.end());
    },
  } as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { received, address: `127.0.0.1:${port}`, stop: () => server.forceShutdown() };
}

/** ADR 0711's gap, closed: a look-up on identity's user stream is a client span of its request. */
describe('IdentityUserStreams trace context', () => {
  let receiver: OtlpReceiver;
  let identity: Awaited<ReturnType<typeof startFakeIdentity>>;
  let streams: IdentityUserStreams;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    identity = await startFakeIdentity();
    streams = new IdentityUserStreams(
      createIdentityAdapter(identity.address, { deadlineMs: 60_000 }),
      { deadlineMs: 60_000 },
    );
  });
  afterAll(async () => {
    streams?.close();
    identity?.stop();
    await receiver?.stop();
  });

  it("sends the look-up's traceparent in its message, as a client span under the request's span", async () => {
    const tracing = startTracing('gateway', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint });
    try {
      await expectTracedLookUp(tracing);
    } finally {
      // Off again, whatever the outcome: the next test expects a gateway without tracing.
      await tracing.shutdown();
    }
  });

  /** A look-up under a request's span sends its traceparent and exports a client span under it. */
  async function expectTracedLookUp(tracing: TracingHandle) {
    const traceId = randomBytes(16).toString('hex');
    const request = startSpan('GET /api/user', {
      kind: SpanKind.SERVER,
      remote: (key) =>
        key === 'traceparent' ? `00-${traceId}-${randomBytes(8).toString('hex')}-01` : undefined,
    })!;
    const users = await runWithContext({ requestId: 'r1', span: request }, () =>
      streams.lookUp('tenant-1', [7]),
    );
    endSpan(request);
    expect(users.map((user) => user.id)).toEqual([7]);

    const sent = identity.received.at(-1)!.traceparent!;
    const [, sentTraceId, clientSpanId] = sent.split('-');
    expect(sentTraceId).toBe(traceId);
    await expect
      .poll(
        async () => {
          await tracing.flush();
          return receiver.spans.find((span) => span.spanId === clientSpanId);
        },
        { timeout: 15_000, interval: 500 },
      )
      .toMatchObject({
        traceId,
        name: 'inventory.identity.v1.IdentityService/StreamUsers',
        kind: 3, // CLIENT
        parentSpanId: request.spanContext().spanId,
        attributes: { 'rpc.grpc.status_code': GrpcStatus.OK },
      });
  }

  it('sends no trace context when tracing is off', async () => {
    await streams.lookUp('tenant-1', [8]);
    expect(identity.received.at(-1)).toMatchObject({ user_ids: [8] });
    expect(identity.received.at(-1)!.traceparent).toBeUndefined();
  });
});
