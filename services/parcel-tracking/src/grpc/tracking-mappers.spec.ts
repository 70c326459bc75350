import { ListTrackingsRequest } from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import { TRACKINGS_DEFAULT_PER_PAGE, TRACKINGS_MAX_PER_PAGE } from '@inventory/rules';
import { describe, expect, it } from 'vitest';
import { fromListRequest } from './tracking-mappers.js';

const request = (perPage: number) =>
  ListTrackingsRequest.fromPartial({ integration_instance_id: 1, per_page: perPage });

describe('fromListRequest per_page', () => {
  it('takes the default when unset and anything up to the one maximum the gateway uses', () => {
    expect(fromListRequest(request(0)).perPage).toBe(TRACKINGS_DEFAULT_PER_PAGE);
    expect(fromListRequest(request(101)).perPage).toBe(101);
    expect(fromListRequest(request(TRACKINGS_MAX_PER_PAGE)).perPage).toBe(TRACKINGS_MAX_PER_PAGE);
  });

  it('refuses above the maximum with a per_page violation instead of clamping', () => {
    expect(() => fromListRequest(request(TRACKINGS_MAX_PER_PAGE + 1))).toThrow(
      expect.objectContaining({ code: 3 }),
    );
  });
});
