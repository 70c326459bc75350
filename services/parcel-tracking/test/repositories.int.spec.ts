import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { connectMongo } from '@inventory/platform';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTO_TRACK_KEYS,
  fillBooleans,
  SIDE_EFFECT_KEYS,
} from '../src/domain/instance-settings.js';
import { AppliedUpdateRepository } from '../src/store/applied-update-repository.js';
import { InstanceHistoryRepository } from '../src/store/instance-history-repository.js';
import { type NewInstance } from '../src/store/instance.js';
import { InstanceRepository } from '../src/store/instance-repository.js';
import { SalesChannelRepository } from '../src/store/sales-channel-repository.js';
import { ShipmentRepository } from '../src/store/shipment-repository.js';
import { StopJobRepository } from '../src/store/stop-job-repository.js';
import { TrackingRepository } from '../src/store/tracking-repository.js';

/** Tenant A owns every row; tenant B names A's ids and keys and must neither see nor change them. */
const A = 'tenant-a';
const B = 'tenant-b';

const instance = (tenantId: string, token: string): NewInstance => ({
  tenant_id: tenantId,
  name: `Parcel tracking ${tenantId}`,
  api_key_encrypted: 'not-a-real-ciphertext',
  is_automatic_sync_enabled: true,
  auto_track: fillBooleans(AUTO_TRACK_KEYS, undefined),
  auto_track_channels: { default: 'all', channels: {} },
  webhook_token: token,
  side_effects: fillBooleans(SIDE_EFFECT_KEYS, undefined),
  quota_alert_threshold: 80,
  quota_alert_state: 'armed',
});

describe('tenant isolation of every parcel-tracking repository', () => {
  let infra: TestInfra;
  let connection: Connection;

  beforeAll(async () => {
    infra = await startTestInfra({ nats: false, redis: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('parcel_tracking_repositories'));
  });

  afterAll(async () => {
    await connection?.close();
    await infra?.stop();
  });

  it('InstanceRepository: another tenant cannot find, change, move the alert of or delete an instance; only the named sweep spans tenants', async () => {
    const instances = new InstanceRepository(connection);
    const a = await instances.create(instance(A, 'wh_a'));
    const b = await instances.create(instance(B, 'wh_b'));
    expect(await instances.find(B, a.id)).toBeNull();
    expect((await instances.findForTenant(B))!.id).toBe(b.id);
    expect(await instances.update(B, a.id, { name: 'stolen' })).toBeNull();
    expect(await instances.moveQuotaAlert(B, a.id, 'armed', 80, 'warned', true)).toBeNull();
    expect(await instances.moveForecastAlert(B, a.id, 'armed', 0, 'fired', true)).toBeNull();
    await instances.addUnitsSaved(B, a.id, 5);
    expect(await instances.delete(B, a.id)).toBe(false);
    expect(await instances.find(A, a.id)).toMatchObject({
      name: `Parcel tracking ${A}`,
      quota_alert_state: 'armed',
      quota_forecast_alert_state: 'armed',
      quota_units_saved: 0,
    });
    expect((await instances.listAcrossTenants()).map((row) => row.id)).toEqual([a.id, b.id]);
  });

  it('TrackingRepository: another tenant cannot read, stop, update, claim or release a row', async () => {
    const trackings = new TrackingRepository(connection);
    const row = await trackings.insert({
      tenant_id: A,
      integration_instance_id: 1,
      trackable_type: 'rma',
      trackable_id: 1,
      tracking_number: 'ISO0000001',
      delivery_status: 'in_transit',
      registered_at: new Date(),
    });
    const now = new Date();
    expect(await trackings.find(B, 1)).toEqual([]);
    expect((await trackings.statusCounts(B, 1)).in_transit).toBe(0);
    expect(await trackings.stopActive(B, 1, now)).toEqual([]);
    await trackings.markProviderStopped(B, 1, ['ISO0000001'], now);
    expect(await trackings.byId(B, row.id)).toBeNull();
    expect(await trackings.forNumber(B, 1, 'ISO0000001')).toBeNull();
    expect(
      await trackings.applyIfUnchanged(B, row.id, 0, { delivery_status: 'delivered' }, now),
    ).toBe(false);
    await trackings.stop(B, [row.id], now);
    expect((await trackings.list(B, [1], listAll)).total).toBe(0);
    const claim = { instanceId: 1, owner: 'w', now, leaseMs: 60_000, limit: 10 };
    const staleBefore = new Date(now.getTime() + 1);
    expect(await trackings.claim('poll', { ...claim, tenantId: B, staleBefore })).toEqual([]);
    expect(await trackings.release(B, 'w', [row], { last_polled_at: now }, now)).toBe(0);
    // The registration a re-added number takes over (ADR 0236), and the forecast's count.
    const old = await trackings.insert({
      tenant_id: A,
      integration_instance_id: 1,
      trackable_type: 'rma',
      trackable_id: 2,
      tracking_number: 'ISO0000002',
      delivery_status: 'in_transit',
      registered_at: now,
      registered_key_ref: 'key-a',
      active: false,
      stopped_at: now,
    });
    const since = new Date(now.getTime() - 60_000);
    expect((await trackings.registrationsPerDay(B, 1, since)).size).toBe(0);
    expect(await trackings.unitsSpentSince(B, 1, since)).toBe(0);
    expect((await trackings.priorRegistrations(B, 1, ['ISO0000002'], 'key-a', [])).size).toBe(0);
    expect(await trackings.handOverRegistration(B, old.id, now)).toBe(false);
    expect([...(await trackings.registrationsPerDay(A, 1, since)).values()]).toEqual([
      { registered: 2, reused: 0 },
    ]);
    expect(await trackings.unitsSpentSince(A, 1, since)).toBe(2);
    expect((await trackings.priorRegistrations(A, 1, ['ISO0000002'], 'key-a', [])).size).toBe(1);
    expect(await trackings.handOverRegistration(A, old.id, now)).toBe(true);

    const [mine] = (await trackings.find(A, 1)).filter((found) => found.id === row.id);
    expect(mine).toMatchObject({
      delivery_status: 'in_transit',
      active: true,
      stopped_at: null,
      provider_stopped_at: null,
      lease_owner: null,
      revision: 0,
    });
    expect((await trackings.list(A, [1], listAll)).total).toBe(2);
    expect(await trackings.claim('poll', { ...claim, tenantId: A, staleBefore })).toHaveLength(1);
  });

  it('ShipmentRepository: the same trackable key is a separate shipment per tenant', async () => {
    const shipments = new ShipmentRepository(connection);
    const key = { trackable_type: 'rma', trackable_id: 7 };
    await shipments.applyIfNewer(A, key, { tracking_number: 'A-NUMBER' }, new Date(1_000));
    expect(await shipments.withNumber(B)).toEqual([]);
    const theirs = await shipments.applyIfNewer(B, key, { tracking_number: null }, new Date(2_000));
    expect(theirs).toMatchObject({ tenant_id: B, tracking_number: null });
    expect((await shipments.withNumber(A)).map((s) => s.tracking_number)).toEqual(['A-NUMBER']);
  });

  it('SalesChannelRepository: another tenant’s event for the same channel id never touches this one', async () => {
    const channels = new SalesChannelRepository(connection);
    expect(await channels.apply(A, 1, 1, { name: 'Shop', connected: true })).toBe(true);
    expect(await channels.listConnected(B)).toEqual([]);
    expect(await channels.apply(B, 1, 5, { connected: false })).toBe(true);
    expect((await channels.listConnected(A)).map((c) => [c.name, c.version])).toEqual([
      ['Shop', 1],
    ]);
  });

  it('InstanceHistoryRepository: one tenant’s disconnected instances are never another’s history', async () => {
    const history = new InstanceHistoryRepository(connection);
    await history.remember(A, 3, new Date());
    await history.remember(A, 3, new Date());
    expect(await history.instanceIds(B)).toEqual([]);
    expect(await history.instanceIds(A)).toEqual([3]);
  });

  it('StopJobRepository and AppliedUpdateRepository: another tenant cannot read, progress or delete a job, nor see an answer', async () => {
    const jobs = new StopJobRepository(connection);
    const jobId = StopJobRepository.newId();
    await jobs.create({
      job_id: jobId,
      tenant_id: A,
      integration_instance_id: 1,
      api_key_encrypted: 'x',
      numbers: [{ number: 'N1', carrier: null }],
    });
    expect(await jobs.find(B, jobId)).toBeNull();
    await jobs.progress(B, jobId, [], 'stolen');
    await jobs.delete(B, jobId);
    expect(await jobs.find(A, jobId)).toMatchObject({ attempts: 0, last_error: null });

    const answers = new AppliedUpdateRepository(connection);
    const answer = {
      webhook_event_id: 42,
      integration_instance_id: 1,
      outcome: 'applied',
      status_from: 'pending',
      status_to: 'in_transit',
      tracking_id: 9,
    };
    await answers.record(A, answer);
    expect(await answers.find(B, 42)).toBeNull();
    expect(await answers.record(B, { ...answer, outcome: 'unknown_number' })).toMatchObject({
      outcome: 'unknown_number',
    });
    expect(await answers.find(A, 42)).toMatchObject({ outcome: 'applied' });
  });
});

const listAll = {
  search: '',
  deliveryStatuses: [],
  carrierCodes: [],
  trackableTypes: [],
  sortField: 'created_at' as const,
  descending: false,
  page: 1,
  perPage: 10,
};
