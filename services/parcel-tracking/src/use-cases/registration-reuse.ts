import type { ProviderClient, TrackItem } from '../provider/client.js';
import { RETRACK_NOT_STOPPED_CODE, RETRACK_ONLY_ONCE_CODE } from '../provider/errors.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TrackingDocument } from '../store/tracking.js';

/** A claimed row the provider tracks now, and whether that cost a quota unit. */
export interface Registration {
  row: TrackingDocument;
  carrier: number | null;
  reused: boolean;
}

/**
 * What the provider's registrations of a batch's numbers make of it (ADR 0236): rows that took
 * over a registration (no call, or a free retrack), rows to register, and rows to try again
 * shortly (their old row is being stopped at the provider right now).
 */
export interface ReusePlan {
  reused: Registration[];
  register: TrackingDocument[];
  later: TrackingDocument[];
}

const itemOf = (number: string, carrier: number | null): TrackItem => ({
  number,
  ...(carrier === null ? {} : { carrier }),
});

/**
 * Finds the batch's numbers this key registered before, for another row of the instance (a
 * number removed and added again, a trackable's number changed back). Still registered there (the
 * old row not yet stopped at the provider): the old row hands its registration over, with no
 * call. Stopped there: a retrack tracks it again for free. Any other number is registered.
 */
export async function planReuse(
  deps: { trackings: TrackingRepository; provider: ProviderClient },
  at: { tenantId: string; instanceId: number; apiKey: string; keyRef: string; now: Date },
  batch: TrackingDocument[],
): Promise<ReusePlan> {
  const { trackings } = deps;
  const prior = await trackings.priorRegistrations(
    at.tenantId,
    at.instanceId,
    batch.map((row) => row.tracking_number),
    at.keyRef,
    batch.map((row) => row.id),
  );
  const plan: ReusePlan = { reused: [], register: [], later: [] };
  const stopped: Array<{ row: TrackingDocument; carrier: number | null }> = [];
  for (const row of batch) {
    const old = prior.get(row.tracking_number);
    if (!old) plan.register.push(row);
    else if (old.provider_stopped_at !== null)
      stopped.push({ row, carrier: old.carrier_code ?? row.carrier_code });
    // Held by the stopping worker: it may be stopping the number now; the row waits for it.
    else if (!(await trackings.handOverRegistration(at.tenantId, old.id, at.now)))
      plan.later.push(row);
    else plan.reused.push({ row, carrier: old.carrier_code ?? row.carrier_code, reused: true });
  }
  if (stopped.length > 0) {
    const again = await trackAgain(
      deps.provider,
      at.apiKey,
      stopped.map(({ row, carrier }) => itemOf(row.tracking_number, carrier)),
    );
    for (const { row, carrier } of stopped)
      if (again.tracking.has(row.tracking_number)) plan.reused.push({ row, carrier, reused: true });
      else plan.register.push(row);
  }
  return plan;
}

/**
 * Numbers the account holds (register answered "already registered", or our own stopped rows):
 * a retrack tracks a stopped one again for free, and "not stopped" means it is tracked already.
 * A number retracked once before cannot be again: it is deleted so a registration (a unit) can
 * track it. Answers the numbers tracked now without cost, upper-case.
 */
export async function trackAgain(
  provider: ProviderClient,
  apiKey: string,
  items: TrackItem[],
): Promise<{ tracking: Set<string> }> {
  const result = await provider.retrack(apiKey, items);
  const tracking = new Set([
    ...result.accepted.map((item) => item.number.toUpperCase()),
    ...result.rejected
      .filter((item) => item.code === RETRACK_NOT_STOPPED_CODE)
      .map((item) => item.number.toUpperCase()),
  ]);
  const spent = new Set(
    result.rejected
      .filter((item) => item.code === RETRACK_ONLY_ONCE_CODE)
      .map((item) => item.number.toUpperCase()),
  );
  if (spent.size > 0)
    await provider.deleteTrack(
      apiKey,
      items.filter((item) => spent.has(item.number.toUpperCase())),
    );
  return { tracking };
}
