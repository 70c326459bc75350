import { ErrorCode, errorMessage } from '../errors.js';
import { detectCarrier, findCarrier } from './carriers.js';
import { scriptFor } from './progression.js';
import type { KeyAccount } from './state.js';
import { buildTrackInfo } from './track-info.js';
import type { TrackInfo } from './track-info.js';
import type { Clock, Tracking } from './types.js';

export interface NumberItem {
  number: string;
  carrier?: number;
  tag?: string;
}

export interface Rejected {
  number: string;
  error: { code: number; message: string };
}

export interface BatchResult<A> {
  accepted: A[];
  rejected: Rejected[];
}

const NUMBER_FORMAT = /^[A-Za-z0-9]{5,50}$/;

function reject(number: string, code: number, arg = number): Rejected {
  return { number, error: { code, message: errorMessage(code, arg) } };
}

function batch<A>(
  items: readonly NumberItem[],
  each: (item: NumberItem) => A | Rejected,
): BatchResult<A> {
  const result: BatchResult<A> = { accepted: [], rejected: [] };
  for (const item of items) {
    if (!NUMBER_FORMAT.test(item.number)) {
      result.rejected.push(reject(item.number, ErrorCode.FieldInvalid, 'number'));
      continue;
    }
    const out = each(item);
    if (typeof out === 'object' && out !== null && 'error' in out) result.rejected.push(out);
    else result.accepted.push(out);
  }
  return result;
}

/** The registered tracking for an item, or the rejection for a number that isn't registered. */
function lookup(account: KeyAccount, item: NumberItem): Tracking | Rejected {
  const t = account.trackings.get(item.number.toUpperCase());
  if (!t || (item.carrier !== undefined && item.carrier !== t.carrier)) {
    return reject(item.number, ErrorCode.NotRegistered);
  }
  return t;
}

function isRejected(x: Tracking | Rejected): x is Rejected {
  return 'error' in x;
}

export function register(account: KeyAccount, items: readonly NumberItem[], clock: Clock) {
  return batch(items, (item) => {
    if (account.trackings.has(item.number.toUpperCase())) {
      return reject(item.number, ErrorCode.AlreadyRegistered);
    }
    let carrier = item.carrier;
    if (carrier !== undefined && !findCarrier(carrier)) {
      return reject(item.number, ErrorCode.CarrierInvalid, String(carrier));
    }
    carrier ??= detectCarrier(item.number);
    if (carrier === undefined) return reject(item.number, ErrorCode.CarrierNotDetected);
    const quotaError = account.quota.check();
    if (quotaError !== undefined) return reject(item.number, quotaError);
    account.quota.consume();
    const tracking: Tracking = {
      apiKey: account.key,
      number: item.number,
      carrier,
      tag: item.tag ?? null,
      registeredAt: clock(),
      state: 'Tracking',
      retracked: false,
      script: scriptFor(item.number),
      step: -1,
      status: 'NotFound',
      subStatus: 'NotFound_Other',
      subStatusDescr: null,
      events: [],
      milestones: {},
      estimatedDelivery: { source: null, from: null, to: null },
    };
    account.trackings.set(item.number.toUpperCase(), tracking);
    return { origin: 1, number: item.number, carrier, tag: tracking.tag };
  });
}

export interface TrackInfoItem {
  number: string;
  carrier: number;
  param: null;
  tag: string | null;
  track_info: TrackInfo;
}

export function trackInfoItem(t: Tracking, clock: Clock): TrackInfoItem {
  return {
    number: t.number,
    carrier: t.carrier,
    param: null,
    tag: t.tag,
    track_info: buildTrackInfo(t, clock),
  };
}

export function getTrackInfo(account: KeyAccount, items: readonly NumberItem[], clock: Clock) {
  return batch(items, (item) => {
    const t = lookup(account, item);
    return isRejected(t) ? t : trackInfoItem(t, clock);
  });
}

export function stopTrack(
  account: KeyAccount,
  items: readonly NumberItem[],
  stopped: Tracking[] = [],
) {
  return batch(items, (item) => {
    const t = lookup(account, item);
    if (isRejected(t)) return t;
    if (t.state === 'Stopped') return reject(item.number, ErrorCode.StopNotTracking);
    t.state = 'Stopped';
    stopped.push(t);
    return { number: t.number, carrier: t.carrier };
  });
}

export function retrack(account: KeyAccount, items: readonly NumberItem[]) {
  return batch(items, (item) => {
    const t = lookup(account, item);
    if (isRejected(t)) return t;
    if (t.state !== 'Stopped') return reject(item.number, ErrorCode.RetrackNotStopped);
    if (t.retracked) return reject(item.number, ErrorCode.RetrackOnlyOnce);
    t.state = 'Tracking';
    t.retracked = true;
    return { number: t.number, carrier: t.carrier };
  });
}

export function deleteTrack(account: KeyAccount, items: readonly NumberItem[]) {
  return batch(items, (item) => {
    const t = lookup(account, item);
    if (isRejected(t)) return t;
    account.trackings.delete(item.number.toUpperCase());
    return { number: t.number, carrier: t.carrier };
  });
}
