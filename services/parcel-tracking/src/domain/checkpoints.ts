import { createHash } from 'node:crypto';
import { TRACKING_CHECKPOINTS_MAX } from '@inventory/rules';
import { mapProviderStatus, type DeliveryStatus } from './delivery-status.js';

export { TRACKING_CHECKPOINTS_MAX };

const MAX_TEXT = 255;

/** One carrier checkpoint as the provider reports it (an event of its history). */
export interface ProviderCheckpoint {
  occurred_at: Date;
  description: string;
  location: string;
  sub_status: string;
  stage: string;
}

/** A checkpoint as a row keeps it: the provider's plus our status and its identity. */
export interface KeptCheckpoint extends ProviderCheckpoint {
  /** Same time, description, location and sub-status: the same checkpoint (ADR 0216). */
  key: string;
  status: DeliveryStatus | '';
  /**
   * Its place in the provider's history counted from the oldest: orders checkpoints of one second
   * (times have seconds precision) as the provider listed them.
   */
  seq: number;
}

const clip = (value: unknown): string =>
  typeof value === 'string' ? value.replace(/\0/g, '').slice(0, MAX_TEXT) : '';

/** Our status of a provider sub-status (`InTransit_PickedUp` → in_transit); '' when none. */
export function checkpointStatus(subStatus: string): DeliveryStatus | '' {
  if (!subStatus) return '';
  return mapProviderStatus(subStatus.split('_')[0]);
}

/**
 * The checkpoints worth keeping of one update (reported newest first, as the provider lists
 * them): those with a valid time, each once (a provider repeating an event in one answer), the
 * newest TRACKING_CHECKPOINTS_MAX, newest first.
 */
export function keepableCheckpoints(
  reported: ReadonlyArray<Partial<ProviderCheckpoint> | null | undefined>,
): KeptCheckpoint[] {
  const byKey = new Map<string, KeptCheckpoint>();
  const valid = reported.filter(
    (item) => item?.occurred_at instanceof Date && !Number.isNaN(item.occurred_at.getTime()),
  );
  for (const [index, item] of valid.entries()) {
    const time = item!.occurred_at!;
    const description = clip(item?.description);
    const location = clip(item?.location);
    const subStatus = clip(item?.sub_status).slice(0, 64);
    const key = createHash('sha256')
      .update(JSON.stringify([time.toISOString(), description, location, subStatus]))
      .digest('base64url');
    if (byKey.has(key)) continue;
    byKey.set(key, {
      key,
      seq: valid.length - 1 - index,
      occurred_at: time,
      description,
      location,
      sub_status: subStatus,
      stage: clip(item?.stage).slice(0, 64),
      status: checkpointStatus(subStatus),
    });
  }
  return newestFirst([...byKey.values()]).slice(0, TRACKING_CHECKPOINTS_MAX);
}

/** Newest first; equal times as the provider listed them, then by key, so reads and caps agree. */
export function newestFirst<T extends { occurred_at: Date; seq: number; key: string }>(
  items: T[],
): T[] {
  return items.sort(
    (a, b) =>
      b.occurred_at.getTime() - a.occurred_at.getTime() ||
      b.seq - a.seq ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}
