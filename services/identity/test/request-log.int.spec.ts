import type { IdentityServiceClient } from '@inventory/contracts/identity/v1/identity.js';
import { IDENTITY_STREAM, tokenRequestsLogged } from '@inventory/events';
import { consumerDrained, documentsExamined } from '@inventory/local-infra';
import {
  encodeEvent,
  EventPublisher,
  type GrpcClientHandle,
  type ServiceRuntime,
} from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { RETIRED_TOKEN_REQUEST_INDEXES } from '../src/store/token-request.js';
import { as, loggedRequest, startIdentity, tokenOwner, type IdentityUnderTest } from './harness.js';

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
    const owner = await tokenOwner(client, 'logs');
    const { tenant, token } = owner;
    const entry = (id: string, at: Date, status = 200) =>
      loggedRequest(owner, id, { at, status, duration_ms: 1.5 });
    // Recent times: rows older than the retention (30 days) are swept by the TTL index.
    const newer = new Date(Math.floor(Date.now() / 1000) * 1000 - 60 * 60_000);
    const older = new Date(newer.getTime() - 24 * 60 * 60_000);
    const publisher = new EventPublisher(service.jetstream);
    const batch = encodeEvent(tokenRequestsLogged, {
      tenantId: tenant.id,
      payload: { requests: [entry('r-1', newer), entry('r-2', newer, 404)] },
    });
    // The same batch twice under different message ids, as a redelivery past the duplicate window would be.
    await publisher.publishEncoded(tokenRequestsLogged.subject, `${batch.id}-a`, batch.bytes, '');
    await publisher.publishEncoded(tokenRequestsLogged.subject, `${batch.id}-b`, batch.bytes, '');
    // A late batch with an older request must not move last_used_at back.
    await publisher.publish(tokenRequestsLogged, {
      tenantId: tenant.id,
      payload: { requests: [entry('r-3', older)] },
    });

    // All three deliveries handled (the consumer acks after storing), then count.
    await consumerDrained(service.jetstreamManager, IDENTITY_STREAM.name, 'identity-request-log');
    const requests = service.mongo.collection('token_requests');
    expect(await requests.countDocuments({ tenant_id: tenant.id })).toBe(3);
    const stored = await service.mongo
      .collection('personal_access_tokens')
      .findOne({ tenant_id: tenant.id, id: token.id });
    expect(stored?.last_used_at).toEqual(newer);
  });

  it('reads only the rows of the page it shows, newest first, however long the history', async () => {
    const owner = await tokenOwner(client, 'history');
    const { tenant, user, token } = owner;
    // 300 requests, two by two in the same millisecond: the id breaks the tie.
    const start = Math.floor(Date.now() / 1000) * 1000 - 60 * 60_000;
    const requests = Array.from({ length: 300 }, (_, n) =>
      loggedRequest(owner, `h-${String(n).padStart(3, '0')}`, {
        at: new Date(start + Math.floor(n / 2)),
      }),
    );
    await new EventPublisher(service.jetstream).publish(tokenRequestsLogged, {
      tenantId: tenant.id,
      payload: { requests },
    });
    await consumerDrained(service.jetstreamManager, IDENTITY_STREAM.name, 'identity-request-log');

    const examined = () => documentsExamined(service.mongo.db!);
    const before = await examined();
    const page = await as(tenant.id, user.id, () =>
      client.call.listTokenRequests({
        token_id: token.id,
        page: 2,
        per_page: 25,
        statuses: [],
        status_classes: [],
      }),
    );
    // The page's 25 rows (the 25 skipped are skipped in the index); all 300 before.
    expect((await examined()) - before).toBeLessThanOrEqual(35);
    expect(page.total).toBe(300);
    expect(page.requests.map((request) => request.id)).toEqual(
      Array.from({ length: 25 }, (_, k) => `h-${String(274 - k).padStart(3, '0')}`),
    );
  });

  it('drops the retired history index at start', async () => {
    const requests = service.mongo.collection('token_requests');
    await requests.createIndex({ tenant_id: 1, token_id: 1, at: -1 });
    const names = async () => (await requests.indexes()).map((index) => index.name);
    expect(await names()).toContain(RETIRED_TOKEN_REQUEST_INDEXES[0]);
    const replica = await bootstrap({
      MONGO_URL: identity.infra.mongoUrl,
      MONGO_DB: identity.dbName,
      NATS_URL: identity.infra.natsUrl,
      LOG_LEVEL: 'silent',
    });
    await replica.stop();
    expect(await names()).not.toContain(RETIRED_TOKEN_REQUEST_INDEXES[0]);
  });
});
