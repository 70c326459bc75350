import type { PopulatedTenant, ResilienceSystem } from './harness.js';
import { PARCEL } from './harness.js';

/** Fields that change by reading (last use, live provider figures), not by writing. */
const VOLATILE = /^(last_used|last_webhook|quota|live_|remaining|usage|request_count)/;

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !VOLATILE.test(key))
        .map(([key, inner]) => [key, stable(inner)]),
    );
  return value;
}

/**
 * What a tenant's writes could change, read through the gateway: the user, its tokens, the
 * instance, the subscriptions and the alerts. Equal snapshots before and after a batch of
 * refused writes mean none of them wrote anything.
 */
export async function snapshotOf(_r: ResilienceSystem, t: PopulatedTenant) {
  const reads = await Promise.all([
    t.fixture.request('GET', '/api/user'),
    t.session.request('GET', '/api/personal-access-tokens?per_page=100'),
    t.fixture.request('GET', `${PARCEL}/instances/${t.instanceId}`),
    t.fixture.request('GET', '/api/webhook-subscriptions?per_page=100'),
    t.session.request('GET', '/api/alerts'),
  ]);
  return reads.map((read) => ({ status: read.status, body: stable(read.body) }));
}
