import { status } from '@grpc/grpc-js';
import { WebhookIngestServiceClient } from '@inventory/contracts/webhook_ingest/v1/webhook_ingest.js';
import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import {
  createGrpcClient,
  describeCallError,
  runWithContext,
  type GrpcClientHandle,
} from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { webhookEvents, webhookTokens } from './harness.js';

const asTenant = <T>(tenantId: string | undefined, fn: () => Promise<T>) =>
  runWithContext({ requestId: 'test', tenantId }, fn);
const token = (suffix: string) => `wh_${suffix.padEnd(43, 'x')}`;

async function codeOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return describeCallError(error);
  }
  throw new Error('expected the call to fail');
}

describe('webhook-ingest: central token registry and inbox', () => {
  let infra: TestInfra;
  let service: Awaited<ReturnType<typeof bootstrap>>;
  let client: GrpcClientHandle<WebhookIngestServiceClient>;

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    service = await bootstrap({
      MONGO_URL: infra.mongoUrl,
      MONGO_DB: infra.dbName('webhook_ingest'),
      NATS_URL: infra.natsUrl,
      LOG_LEVEL: 'silent',
      // Nothing listens here: parcel-tracking is down for this whole file.
      PARCEL_TRACKING_GRPC_ADDRESS: '127.0.0.1:1',
      GRPC_CLIENT_DEADLINE_MS: '1000',
    });
    client = createGrpcClient(WebhookIngestServiceClient, service.grpc!.address);
  });
  afterAll(async () => {
    client?.close();
    await service?.stop();
    await infra?.stop();
  });

  it('registers a token and resolves it without a tenant, storing only its hash', async () => {
    await asTenant('tenant-a', () =>
      client.call.registerToken({
        token: token('a1'),
        provider: 'parcel-tracking',
        integration_instance_id: 7,
      }),
    );
    const resolved = await asTenant(undefined, () =>
      client.call.resolveToken({ token: token('a1') }),
    );
    expect(resolved).toEqual({
      tenant_id: 'tenant-a',
      provider: 'parcel-tracking',
      integration_instance_id: 7,
    });
    const stored = await webhookTokens(service.mongo).find({}).toArray();
    expect(JSON.stringify(stored)).not.toContain(token('a1'));
  });

  it('refuses a duplicate token (unique index), a malformed token, and a call without tenant', async () => {
    // Each test registers what it needs: run alone, it still has a token to duplicate.
    await asTenant('tenant-a', () =>
      client.call.registerToken({
        token: token('dup1'),
        provider: 'parcel-tracking',
        integration_instance_id: 7,
      }),
    );
    const duplicate = await codeOf(
      asTenant('tenant-b', () =>
        client.call.registerToken({
          token: token('dup1'),
          provider: 'parcel-tracking',
          integration_instance_id: 8,
        }),
      ),
    );
    expect(duplicate.code).toBe(status.ALREADY_EXISTS);
    const malformed = await codeOf(
      asTenant('tenant-b', () =>
        client.call.registerToken({
          token: 'short',
          provider: 'parcel-tracking',
          integration_instance_id: 8,
        }),
      ),
    );
    expect(malformed.code).toBe(status.INVALID_ARGUMENT);
    expect(malformed.fieldViolations.map((v) => v.field)).toEqual(['token']);
    const noTenant = await codeOf(
      asTenant(undefined, () =>
        client.call.registerToken({
          token: token('zz'),
          provider: 'parcel-tracking',
          integration_instance_id: 8,
        }),
      ),
    );
    expect(noTenant.code).toBe(status.INVALID_ARGUMENT);
  });

  it('resolves an unknown token as NOT_FOUND', async () => {
    expect((await codeOf(client.call.resolveToken({ token: token('nope') }))).code).toBe(
      status.NOT_FOUND,
    );
    expect((await codeOf(client.call.resolveToken({ token: '' }))).code).toBe(status.NOT_FOUND);
  });

  // Processing is covered by processing.int.spec.ts; here parcel-tracking is not even reachable.
  it('stores an inbound webhook durably for a known token and reports the last one', async () => {
    await asTenant('tenant-c', () =>
      client.call.registerToken({
        token: token('c1'),
        provider: 'parcel-tracking',
        integration_instance_id: 9,
      }),
    );
    const before = await asTenant('tenant-c', () =>
      client.call.getWebhookSummary({ integration_instance_id: 9 }),
    );
    expect(before).toEqual({});
    const body = JSON.stringify({
      event: 'TRACKING_UPDATED',
      data: { number: '1Z999AA10123456784', carrier: 100002 },
    });
    const { webhook_event_id } = await client.call.ingestWebhook({
      token: token('c1'),
      provider: 'parcel-tracking',
      raw_body: Buffer.from(body),
      content_type: 'application/json',
    });
    expect(webhook_event_id).toBeGreaterThan(0);
    const row = await webhookEvents(service.mongo).findOne({ id: webhook_event_id });
    expect(row).toMatchObject({
      tenant_id: 'tenant-c',
      integration_instance_id: 9,
      event_type: 'TRACKING_UPDATED',
      tracking_number: '1Z999AA10123456784',
      raw_body: body,
      signature: null,
      signature_state: 'absent',
    });
    const after = await asTenant('tenant-c', () =>
      client.call.getWebhookSummary({ integration_instance_id: 9 }),
    );
    expect(after).toEqual({ last_webhook_at: row!.received_at });
    // Another tenant asking about the same instance id sees nothing.
    expect(
      await asTenant('tenant-a', () =>
        client.call.getWebhookSummary({ integration_instance_id: 9 }),
      ),
    ).toEqual({});
  });

  it('answers UNAVAILABLE and stores nothing when a sign cannot be checked (the provider retries)', async () => {
    await asTenant('tenant-e', () =>
      client.call.registerToken({
        token: token('e1'),
        provider: 'parcel-tracking',
        integration_instance_id: 11,
      }),
    );
    const failure = await codeOf(
      client.call.ingestWebhook({
        token: token('e1'),
        provider: 'parcel-tracking',
        raw_body: Buffer.from('{"event":"TRACKING_UPDATED","data":{"number":"1Z1"}}'),
        content_type: 'application/json',
        signature: 'a'.repeat(64),
      }),
    );
    expect(failure.code).toBe(status.UNAVAILABLE);
    expect(await webhookEvents(service.mongo).countDocuments({ tenant_id: 'tenant-e' })).toBe(0);
  });

  it('refuses an inbound webhook for an unknown token or another provider segment', async () => {
    await asTenant('tenant-f', () =>
      client.call.registerToken({
        token: token('f1'),
        provider: 'parcel-tracking',
        integration_instance_id: 12,
      }),
    );
    const raw = Buffer.from('{}');
    expect(
      (
        await codeOf(
          client.call.ingestWebhook({
            token: token('unknown'),
            provider: 'parcel-tracking',
            raw_body: raw,
            content_type: 'application/json',
          }),
        )
      ).code,
    ).toBe(status.NOT_FOUND);
    expect(
      (
        await codeOf(
          client.call.ingestWebhook({
            token: token('f1'),
            provider: 'other',
            raw_body: raw,
            content_type: 'application/json',
          }),
        )
      ).code,
    ).toBe(status.NOT_FOUND);
    expect(await webhookEvents(service.mongo).countDocuments({ tenant_id: 'tenant-f' })).toBe(0);
    // Not vacuous: under its own provider segment the same token is known and stored.
    const accepted = await client.call.ingestWebhook({
      token: token('f1'),
      provider: 'parcel-tracking',
      raw_body: raw,
      content_type: 'application/json',
    });
    expect(await webhookEvents(service.mongo).countDocuments({ tenant_id: 'tenant-f' })).toBe(1);
    expect(accepted.webhook_event_id).toBeGreaterThan(0);
  });

  it('unregisters only for the owning tenant, idempotently; the token then resolves as NOT_FOUND', async () => {
    await asTenant('tenant-d', () =>
      client.call.registerToken({
        token: token('d1'),
        provider: 'parcel-tracking',
        integration_instance_id: 10,
      }),
    );
    expect(
      await asTenant('tenant-a', () => client.call.unregisterToken({ token: token('d1') })),
    ).toEqual({ removed: false });
    expect((await client.call.resolveToken({ token: token('d1') })).tenant_id).toBe('tenant-d');
    expect(
      await asTenant('tenant-d', () => client.call.unregisterToken({ token: token('d1') })),
    ).toEqual({ removed: true });
    expect(
      await asTenant('tenant-d', () => client.call.unregisterToken({ token: token('d1') })),
    ).toEqual({ removed: false });
    expect((await codeOf(client.call.resolveToken({ token: token('d1') }))).code).toBe(
      status.NOT_FOUND,
    );
  });
});
