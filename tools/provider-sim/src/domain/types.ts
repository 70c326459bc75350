/** 17TRACK v2.2 main statuses. */
export const MAIN_STATUSES = [
  'NotFound',
  'InfoReceived',
  'InTransit',
  'Expired',
  'AvailableForPickup',
  'OutForDelivery',
  'DeliveryFailure',
  'Delivered',
  'Exception',
] as const;
export type MainStatus = (typeof MAIN_STATUSES)[number];

/** 17TRACK v2.2 key stages, in milestone order. */
export const KEY_STAGES = [
  'InfoReceived',
  'PickedUp',
  'Departure',
  'Arrival',
  'AvailableForPickup',
  'OutForDelivery',
  'Delivered',
  'Returning',
  'Returned',
] as const;
export type KeyStage = (typeof KEY_STAGES)[number];

export type Clock = () => Date;

export interface TrackEvent {
  time_iso: string;
  time_utc: string;
  time_raw: { date: string; time: string; timezone: string };
  description: string;
  description_translation: null;
  location: string;
  stage: KeyStage | null;
  sub_status: string;
  address: { country: string | null; state: null; city: string | null; street: null };
}

export interface EstimatedDelivery {
  source: string | null;
  from: string | null;
  to: string | null;
}

export type TrackingState = 'Tracking' | 'Stopped';

/** One registered number of one API key. */
export interface Tracking {
  apiKey: string;
  number: string;
  carrier: number;
  tag: string | null;
  registeredAt: Date;
  state: TrackingState;
  retracked: boolean;
  script: string;
  /** Index of the current step in the script; -1 = NotFound (nothing from the carrier yet). */
  step: number;
  status: MainStatus;
  subStatus: string;
  subStatusDescr: string | null;
  /** Newest first, as 17TRACK returns them. */
  events: TrackEvent[];
  milestones: Partial<Record<KeyStage, Date>>;
  estimatedDelivery: EstimatedDelivery;
}
