import { describe, expect, it } from 'vitest';
import { decideUpdate, type RowStatus } from './tracking-update.js';

const now = new Date('2026-01-10T00:00:00Z');
const row = (over: Partial<RowStatus> = {}): RowStatus => ({
  delivery_status: 'in_transit',
  sub_status: 'InTransit_PickedUp',
  last_event_at: new Date('2026-01-05T10:00:00Z'),
  latest_event_description: 'Picked up',
  carrier_code: 100002,
  delivered_at: null,
  picked_up_at: new Date('2026-01-05T10:00:00Z'),
  stopped_at: null,
  ...over,
});
const delivered = {
  event_type: 'TRACKING_UPDATED' as const,
  provider_status: 'Delivered',
  provider_sub_status: 'Delivered_Other',
  latest_event_at: new Date('2026-01-07T10:00:00Z'),
  latest_event_description: 'Delivered',
  latest_event_location: 'Austin, TX',
};

describe('decideUpdate (shared by webhooks and polling)', () => {
  it('applies a newer event: status, sub-status, event fields and delivered_at', () => {
    const decision = decideUpdate(row(), delivered, now);
    expect(decision).toMatchObject({
      outcome: 'applied',
      status_from: 'in_transit',
      status_to: 'delivered',
      became_delivered: true,
    });
    expect(decision.changes).toMatchObject({
      delivery_status: 'delivered',
      sub_status: 'Delivered_Other',
      latest_event_location: 'Austin, TX',
      delivered_at: delivered.latest_event_at,
    });
  });

  it('never moves a row backwards: an older event is stale', () => {
    const decision = decideUpdate(
      row({ delivery_status: 'delivered', last_event_at: delivered.latest_event_at }),
      {
        ...delivered,
        provider_status: 'InTransit',
        latest_event_at: new Date('2026-01-06T00:00:00Z'),
      },
      now,
    );
    expect(decision).toMatchObject({ outcome: 'stale', status_to: 'delivered', changes: {} });
  });

  it('the event the row already holds is a duplicate', () => {
    const applied = decideUpdate(row(), delivered, now);
    const after = { ...row(), ...applied.changes } as RowStatus;
    expect(decideUpdate(after, delivered, now).outcome).toBe('duplicate');
  });

  it('a stopped row ignores updates but TRACKING_STOPPED stops an active one once', () => {
    const stopped = row({ stopped_at: now });
    expect(decideUpdate(stopped, delivered, now).outcome).toBe('stopped');
    expect(decideUpdate(row(), { event_type: 'TRACKING_STOPPED' }, now)).toMatchObject({
      outcome: 'applied',
      changes: { stopped_at: now },
    });
    expect(decideUpdate(stopped, { event_type: 'TRACKING_STOPPED' }, now).outcome).toBe(
      'duplicate',
    );
  });

  it('sets picked_up_at from the PickedUp sub-status once, and keeps delivered_at', () => {
    const fresh = row({
      delivery_status: 'info_received',
      picked_up_at: null,
      sub_status: null,
      last_event_at: null,
    });
    const at = new Date('2026-01-04T00:00:00Z');
    const decision = decideUpdate(
      fresh,
      {
        event_type: 'TRACKING_UPDATED',
        provider_status: 'InTransit',
        provider_sub_status: 'InTransit_PickedUp',
        latest_event_at: at,
      },
      now,
    );
    expect(decision.changes.picked_up_at).toEqual(at);
    const again = decideUpdate(
      row({ delivered_at: now, delivery_status: 'delivered' }),
      { ...delivered, latest_event_at: new Date('2026-01-08T00:00:00Z') },
      now,
    );
    expect(again.became_delivered).toBe(false);
    expect(again.changes.delivered_at).toBeUndefined();
  });

  it('an update without an event time cannot replace a row that has one', () => {
    expect(
      decideUpdate(row(), { event_type: 'TRACKING_UPDATED', provider_status: 'NotFound' }, now)
        .outcome,
    ).toBe('stale');
  });
});
