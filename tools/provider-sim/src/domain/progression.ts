import { findCarrier } from './carriers.js';
import { addDays, toIso, toRaw, toUtc } from './time.js';
import type { Clock, KeyStage, MainStatus, Tracking } from './types.js';

/** One scripted step of a parcel's life. */
export interface Step {
  status: MainStatus;
  subStatus: string;
  description: string;
  /** Where the event happens: the origin city, the destination city. */
  where: 'origin' | 'destination';
  /** How the estimated delivery window changes: `transit` = +2..+4 days, `today` = today. */
  eta?: 'transit' | 'today';
}

const STEPS = {
  infoReceived: {
    status: 'InfoReceived',
    subStatus: 'InfoReceived',
    description: 'Shipment information received',
    where: 'origin',
  },
  pickedUp: {
    status: 'InTransit',
    subStatus: 'InTransit_PickedUp',
    description: 'Picked up by the carrier',
    where: 'origin',
    eta: 'transit',
  },
  outForDelivery: {
    status: 'OutForDelivery',
    subStatus: 'OutForDelivery_Other',
    description: 'Out for delivery',
    where: 'destination',
    eta: 'today',
  },
  delivered: {
    status: 'Delivered',
    subStatus: 'Delivered_Other',
    description: 'Delivered',
    where: 'destination',
  },
  returning: {
    status: 'Exception',
    subStatus: 'Exception_Returning',
    description: 'Returning to sender',
    where: 'destination',
  },
  returned: {
    status: 'Exception',
    subStatus: 'Exception_Returned',
    description: 'Returned to sender',
    where: 'origin',
  },
  deliveryFailed: {
    status: 'DeliveryFailure',
    subStatus: 'DeliveryFailure_Other',
    description: 'Delivery attempted, recipient not available',
    where: 'destination',
  },
  atPickupPoint: {
    status: 'AvailableForPickup',
    subStatus: 'AvailableForPickup_Other',
    description: 'Available for pickup at the pickup point',
    where: 'destination',
    eta: 'today',
  },
  expired: {
    status: 'Expired',
    subStatus: 'Expired_Other',
    description: 'No updates for a long time',
    where: 'origin',
  },
} satisfies Record<string, Step>;

/** Scripts by number prefix (checked case-insensitively, first match wins). */
export const SCRIPTS: ReadonlyArray<{ name: string; prefix: string; steps: readonly Step[] }> = [
  {
    name: 'exception',
    prefix: 'EXC',
    steps: [STEPS.infoReceived, STEPS.pickedUp, STEPS.returning, STEPS.returned],
  },
  {
    name: 'failure',
    prefix: 'FAIL',
    steps: [STEPS.infoReceived, STEPS.pickedUp, STEPS.outForDelivery, STEPS.deliveryFailed],
  },
  {
    name: 'pickup',
    prefix: 'PICKUP',
    steps: [STEPS.infoReceived, STEPS.pickedUp, STEPS.atPickupPoint, STEPS.delivered],
  },
  { name: 'expire', prefix: 'EXPIRE', steps: [STEPS.infoReceived, STEPS.expired] },
];

const DEFAULT_SCRIPT = {
  name: 'default',
  prefix: '',
  steps: [STEPS.infoReceived, STEPS.pickedUp, STEPS.outForDelivery, STEPS.delivered],
};

export function scriptFor(number: string): string {
  const upper = number.toUpperCase();
  return SCRIPTS.find((s) => upper.startsWith(s.prefix))?.name ?? DEFAULT_SCRIPT.name;
}

export function stepsOf(script: string): readonly Step[] {
  return SCRIPTS.find((s) => s.name === script)?.steps ?? DEFAULT_SCRIPT.steps;
}

const CITIES: Record<string, { origin: string; destination: string }> = {
  US: { origin: 'Los Angeles, CA, US', destination: 'New York, NY, US' },
  DE: { origin: 'Leipzig, DE', destination: 'Berlin, DE' },
  CN: { origin: 'Shenzhen, Guangdong, CN', destination: 'Shanghai, CN' },
  GB: { origin: 'Manchester, GB', destination: 'London, GB' },
};

/** The key stage an event of this sub-status marks, if any. */
export function stageOf(subStatus: string): KeyStage | null {
  const stages: Record<string, KeyStage> = {
    InfoReceived: 'InfoReceived',
    InTransit_PickedUp: 'PickedUp',
    InTransit_Departure: 'Departure',
    InTransit_Arrival: 'Arrival',
    Exception_Returning: 'Returning',
    Exception_Returned: 'Returned',
  };
  if (stages[subStatus]) return stages[subStatus];
  const main = subStatus.split('_')[0];
  if (main === 'AvailableForPickup' || main === 'OutForDelivery' || main === 'Delivered')
    return main;
  return null;
}

/** Moves the tracking to `step`: new latest event, milestone and estimated delivery. */
export function applyStep(t: Tracking, step: Step, clock: Clock): void {
  const carrier = findCarrier(t.carrier);
  const offset = carrier?.utcOffset ?? '+00:00';
  const country = carrier?.country ?? 'US';
  const location = (CITIES[country] ?? CITIES.US!)[step.where];
  const newest = t.events[0];
  let at = clock();
  if (newest && at.getTime() <= Date.parse(newest.time_utc)) {
    at = new Date(Date.parse(newest.time_utc) + 1000);
  }
  const stage = stageOf(step.subStatus);
  t.events.unshift({
    time_iso: toIso(at, offset),
    time_utc: toUtc(at),
    time_raw: toRaw(at, offset),
    description: step.description,
    description_translation: null,
    location,
    stage,
    sub_status: step.subStatus,
    address: { country, state: null, city: location.split(',')[0] ?? null, street: null },
  });
  if (stage && !t.milestones[stage]) t.milestones[stage] = at;
  t.status = step.status;
  t.subStatus = step.subStatus;
  t.subStatusDescr = null;
  if (step.eta === 'transit') {
    t.estimatedDelivery = {
      source: '17TRACK',
      from: toIso(addDays(at, 2), offset),
      to: toIso(addDays(at, 4), offset),
    };
  } else if (step.eta === 'today') {
    t.estimatedDelivery = { source: '17TRACK', from: toIso(at, offset), to: toIso(at, offset) };
  }
}

/** Advances to the next scripted step; `false` when the script is already finished. */
export function advanceTracking(t: Tracking, clock: Clock): boolean {
  const steps = stepsOf(t.script);
  const next = steps[t.step + 1];
  if (!next) return false;
  t.step += 1;
  applyStep(t, next, clock);
  return true;
}

/** Default sub-status for a main status. */
export function defaultSubStatus(status: MainStatus): string {
  return status === 'InfoReceived' ? 'InfoReceived' : `${status}_Other`;
}
