import { describe, expect, it } from 'vitest';
import {
  DELIVERY_STATUSES,
  mapProviderStatus,
  presentStatus,
  zeroStatusCounts,
} from './delivery-status.js';

describe('delivery status mapping', () => {
  it('maps every provider main status to ours', () => {
    expect(mapProviderStatus('NotFound')).toBe('not_found');
    expect(mapProviderStatus('InfoReceived')).toBe('info_received');
    expect(mapProviderStatus('InTransit')).toBe('in_transit');
    expect(mapProviderStatus('AvailableForPickup')).toBe('available_for_pickup');
    expect(mapProviderStatus('OutForDelivery')).toBe('out_for_delivery');
    expect(mapProviderStatus('Delivered')).toBe('delivered');
    expect(mapProviderStatus('DeliveryFailure')).toBe('delivery_failure');
    expect(mapProviderStatus('Exception')).toBe('exception');
    expect(mapProviderStatus('Expired')).toBe('expired');
  });

  it('treats a row the provider has not reported on as pending, and an unknown status as an exception', () => {
    expect(mapProviderStatus(undefined)).toBe('pending');
    expect(mapProviderStatus('')).toBe('pending');
    expect(mapProviderStatus('Teleported')).toBe('exception');
  });

  it('has exactly ten zero-filled buckets in the specification order, each with a label and colour', () => {
    expect(DELIVERY_STATUSES).toHaveLength(10);
    expect(Object.keys(zeroStatusCounts())).toEqual([...DELIVERY_STATUSES]);
    expect(Object.values(zeroStatusCounts()).every((count) => count === 0)).toBe(true);
    for (const status of DELIVERY_STATUSES)
      expect(presentStatus(status).label.length).toBeGreaterThan(0);
    expect(presentStatus('available_for_pickup')).toEqual({
      label: 'Available for Pickup',
      color: 'purple',
    });
  });
});
