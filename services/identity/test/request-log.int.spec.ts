import type { IdentityServiceClient } from '@inventory/contracts/identity/v1/identity.js';
import { IDENTITY_STREAM, tokenRequestsLogged } from '@inventory/events';
import { consumerDrained } from '@inventory/local-infra';
import {
  encodeEvent,
  EventPublisher,
  newRequestId,
  runWithContext,
  type GrpcClientHandle,
  type ServiceRuntime,
} from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startIdentity, type IdentityUnderTest } from './harness.js';

describe('request log batches from the gateways', () => {
  let identity: IdentityUnderTest;
  let service: ServiceRuntime;
  let client: GrpcClientHandle<IdentityServiceClient>;

  beforeAll(async () => {
    identity = await startIdentity();
    ({ service, client } = identity);
  });
  afterAll(async () => {
    await identity?.stop();
  });

  it('stores a batch once even when it is delivered twice, and moves last_used_at only forward', async () => {
    const { tenant } = await client.call.createTenant({
      slug: 'logs',
      name: '',
      custom_domains: [],
    });
    const { user } = await runWithContext({ requestId: newRequestId(), tenantId: tenant!.id }, () =>
      client.call.createUser({
        email: 'log@logs.test',
        name: 'L',
        password: 'password-1',
        is_owner: true,
        permissions: [],
      }),
    );
    const { token } = await as(tenant!.id, user!.id, () =>
      client.call.createToken({ name: 't', scopes: [], ip_allowlist: [] }),
    );
    const entry = (id: string, at: Date, status = 200) => ({
      id,
      token_id: token!.id,
      user_id: user!.id,
      method: 'GET',
      route: '/api/user',
      path: '/api/user',
      status,
      duration_ms: 1.5,
      ip: '127.0.0.1',
      user_agent: 'test',
      at,
    });
    // Recent times: rows older than the retention (30 days) are swept by the TTL index.
    const newer = new Date(Math.floor(Date.now() / 1000) * 1000 - 60 * 60_000);
    const older = new Date(newer.getTime() - 24 * 60 * 60_000);
    const publisher = new EventPublisher(service.jetstream);
    const batch = encodeEvent(tokenRequestsLogged, {
      tenantId: tenant!.id,
      payload: { requests: [entry('r-1', newer), entry('r-2', newer, 404)] },
    });
    // The same batch twice under different message ids, as a redelivery past the duplicate window would be.
    await publisher.publishEncoded(tokenRequestsLogged.subject, `${batch.id}-a`, batch.bytes, '');
    await publisher.publishEncoded(tokenRequestsLogged.subject, `${batch.id}-b`, batch.bytes, '');
    // A late batch with an older request must not move last_used_at back.
    await publisher.publish(tokenRequestsLogged, {
      tenantId: tenant!.id,
      payload: { requests: [entry('r-3', older)] },
    });

    // All three deliveries handled (the consumer acks after storing), then count.
    await consumerDrained(service.jetstreamManager, IDENTITY_STREAM.name, 'identity-request-log');
    const requests = service.mongo.collection('token_requests');
    expect(await requests.countDocuments({ tenant_id: tenant!.id })).toBe(3);
    const stored = await service.mongo
      .collection('personal_access_tokens')
      .findOne({ tenant_id: tenant!.id, id: token!.id });
    expect(stored?.last_used_at).toEqual(newer);
  });
});
