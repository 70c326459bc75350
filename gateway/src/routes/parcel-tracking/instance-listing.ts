import type { FastifyRequest } from 'fastify';
import type { ParcelTrackingAdapter } from '../../adapters/parcel-tracking.js';
import type { FieldErrors } from '../../http/input-field.js';
import { refuseInvalid } from '../../http/route-input.js';
import { pageAddressOf } from './base-url.js';

export interface InstanceListingDeps {
  parcelTracking: Pick<ParcelTrackingAdapter, 'checkInstance'>;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

/**
 * The start of an instance's listing that another service answers (activity, the webhook log):
 * parcel-tracking says whether the tenant has the instance, so an unknown or another tenant's
 * instance is a 404 even when the query is also bad (the routes declare `deferErrors`); then the
 * query's 422, then where the page links point. The listing also shows the rows of the tenant's
 * disconnected instances, the instance's read-only history (ADR 0215).
 */
export async function openInstanceListing(
  request: FastifyRequest,
  instanceId: number,
  errors: FieldErrors,
  deps: InstanceListingDeps,
): Promise<{ instanceId: number; historyIds: number[]; path: string; rawQuery: string }> {
  const { historyIds } = await deps.parcelTracking.checkInstance(instanceId);
  refuseInvalid(errors);
  return {
    instanceId,
    historyIds,
    ...pageAddressOf(request, deps.publicScheme, deps.publicPort),
  };
}
