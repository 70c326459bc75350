/** What a fault does to one of the launcher's processes (matched by its command line). */
export interface Fault {
  name: string;
  /** The part's name in the launcher's log (`[dev] <part> restarted`). */
  part: string;
  /** A fragment of the process's command line, e.g. `services/activity/src/main.ts`. */
  process: string;
  action: 'freeze' | 'kill';
  /** The request that must answer a JSON 503 during the outage and 2xx after it. */
  probe: ProbeName;
  /**
   * A freeze lasts at least this long (default: until the probe answers 503). Long enough to
   * outlast every retry a consumer used to give up after (ADR 0740).
   */
  holdMs?: number;
}

export type ProbeName = 'user' | 'channels' | 'activity' | 'webhook' | 'subscriptions' | 'readyz';

/**
 * Issue #18's faults: a freeze (SIGSTOP) and a kill (SIGKILL) of each process `npm start` runs,
 * each with the route that shows its outage (readiness where no route depends on the part alone).
 */
export const ALL_FAULTS: Fault[] = [
  {
    part: 'parcel-tracking',
    name: 'freeze parcel-tracking',
    process: 'services/parcel-tracking/src/main.ts',
    action: 'freeze',
    probe: 'channels',
  },
  {
    part: 'parcel-tracking',
    name: 'kill parcel-tracking',
    process: 'services/parcel-tracking/src/main.ts',
    action: 'kill',
    probe: 'channels',
  },
  {
    part: 'activity',
    name: 'freeze activity',
    process: 'services/activity/src/main.ts',
    action: 'freeze',
    probe: 'activity',
  },
  {
    part: 'activity',
    name: 'kill activity',
    process: 'services/activity/src/main.ts',
    action: 'kill',
    probe: 'activity',
  },
  {
    part: 'identity',
    name: 'freeze identity',
    process: 'services/identity/src/main.ts',
    action: 'freeze',
    probe: 'user',
  },
  {
    part: 'identity',
    name: 'kill identity',
    process: 'services/identity/src/main.ts',
    action: 'kill',
    probe: 'user',
  },
  {
    part: 'webhook-ingest',
    name: 'freeze webhook-ingest',
    process: 'services/webhook-ingest/src/main.ts',
    action: 'freeze',
    probe: 'webhook',
  },
  {
    part: 'webhook-ingest',
    name: 'kill webhook-ingest',
    process: 'services/webhook-ingest/src/main.ts',
    action: 'kill',
    probe: 'webhook',
  },
  {
    part: 'outbound-delivery',
    name: 'freeze outbound-delivery',
    process: 'services/outbound-delivery/src/main.ts',
    action: 'freeze',
    probe: 'subscriptions',
  },
  {
    part: 'outbound-delivery',
    name: 'kill outbound-delivery',
    process: 'services/outbound-delivery/src/main.ts',
    action: 'kill',
    probe: 'subscriptions',
  },
  {
    part: 'redis',
    name: 'freeze redis',
    process: 'redis-server',
    action: 'freeze',
    probe: 'readyz',
    holdMs: 20_000,
  },
  { part: 'redis', name: 'kill redis', process: 'redis-server', action: 'kill', probe: 'readyz' },
  { part: 'nats', name: 'freeze nats', process: 'nats-server', action: 'freeze', probe: 'readyz' },
  { part: 'nats', name: 'kill nats', process: 'nats-server', action: 'kill', probe: 'readyz' },
  {
    part: 'mongo',
    name: 'freeze mongo',
    process: 'mongo-embedded/src/cli/main.ts',
    action: 'freeze',
    probe: 'channels',
    // Long enough for writes sent before the freeze to land after their 503 (ADR 0743).
    holdMs: 20_000,
  },
  {
    part: 'mongo',
    name: 'kill mongo',
    process: 'mongo-embedded/src/cli/main.ts',
    action: 'kill',
    probe: 'readyz',
  },
];
