import { findCarrier } from './domain/carriers.js';
import type { FaultSpec } from './domain/faults.js';
import { advanceTracking, applyStep, defaultSubStatus } from './domain/progression.js';
import type { QuotaSnapshot } from './domain/quota.js';
import { RateLimiter } from './domain/rate-limiter.js';
import { SimState } from './domain/state.js';
import type { AuthStyle, KeyOptions } from './domain/state.js';
import { trackInfoItem } from './domain/track-ops.js';
import type { TrackInfoItem } from './domain/track-ops.js';
import { MAIN_STATUSES } from './domain/types.js';
import type { Clock, MainStatus, Tracking } from './domain/types.js';
import { pushSigned } from './webhooks/pusher.js';
import type { PushResult, WebhookEvent } from './webhooks/pusher.js';

export const TRACK_ENDPOINTS = [
  'register',
  'gettrackinfo',
  'stoptrack',
  'retrack',
  'deletetrack',
  'getquota',
] as const;
export type TrackEndpoint = (typeof TRACK_ENDPOINTS)[number];

export interface SimOptions {
  keys?: KeyOptions[];
  /** Requests per second per key. Default 3. */
  rateLimitPerSecond?: number;
  /** Pause between webhook attempts. Default 500 ms. */
  webhookRetryDelayMs?: number;
  /** Webhook attempts, first included. Default 3. */
  webhookMaxAttempts?: number;
  /** Clock (tests). Default: the real time. */
  now?: Clock;
}

/** Admin failures: `status` is the HTTP status the admin API answers with. */
export class SimError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface TrackingView {
  api_key: string;
  number: string;
  carrier: number;
  carrier_name: string | null;
  tag: string | null;
  tracking_state: Tracking['state'];
  retracked: boolean;
  script: string;
  step: number;
  registered_at: string;
  status: MainStatus;
  sub_status: string;
  track_info: TrackInfoItem['track_info'];
}

export interface ChangeResult {
  /** `false` when the scripted progression was already finished (nothing changed). */
  changed: boolean;
  trackings: TrackingView[];
}

export interface PushRequest {
  url: string;
  number: string;
  event?: WebhookEvent;
  /** Which account's tracking (and key) to use when several registered the number. */
  apiKey?: string;
}

/** The simulator's behaviour, shared by the HTTP API, the admin API and the programmatic handle. */
export class ProviderSim {
  readonly state: SimState;
  readonly rateLimiter: RateLimiter;
  readonly clock: Clock;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** The key each logged delivery was signed with (kept out of the public log). */
  private readonly deliveryKeys: string[] = [];

  constructor(private readonly options: SimOptions = {}) {
    this.clock = options.now ?? (() => new Date());
    this.state = new SimState(options.keys ?? [], this.clock);
    this.rateLimiter = new RateLimiter(options.rateLimitPerSecond ?? 3, () =>
      this.clock().getTime(),
    );
  }

  addKey(options: KeyOptions): { key: string } & QuotaSnapshot {
    if (!options.key) throw new SimError(400, 'key is required');
    const account = this.state.addKey(options);
    return { key: account.key, ...account.quota.snapshot() };
  }

  trackings(): TrackingView[] {
    return this.state.allTrackings().map((t) => this.view(t));
  }

  /** Next step of the scripted progression of every tracking of `number`. */
  advance(number: string, apiKey?: string): ChangeResult {
    const found = this.require(number, apiKey);
    const changed = found.filter((t) => advanceTracking(t, this.clock));
    for (const t of changed) this.autoPush(t, 'TRACKING_UPDATED');
    return { changed: changed.length > 0, trackings: found.map((t) => this.view(t)) };
  }

  /** Puts every tracking of `number` into `status` (e.g. an exception) with a new event. */
  setStatus(number: string, status: MainStatus, subStatus?: string, apiKey?: string): ChangeResult {
    if (!MAIN_STATUSES.includes(status)) throw new SimError(400, `unknown status '${status}'`);
    const sub = subStatus ?? defaultSubStatus(status);
    if (sub !== status && !sub.startsWith(`${status}_`)) {
      throw new SimError(400, `sub_status '${sub}' does not belong to status '${status}'`);
    }
    const found = this.require(number, apiKey);
    for (const t of found) {
      applyStep(
        t,
        { status, subStatus: sub, description: `Status changed: ${sub}`, where: 'destination' },
        this.clock,
      );
      this.autoPush(t, 'TRACKING_UPDATED');
    }
    return { changed: true, trackings: found.map((t) => this.view(t)) };
  }

  /** Sends one signed webhook for `number` to `url`, with the bounded retry. */
  async pushWebhook(request: PushRequest): Promise<PushResult & { body: string }> {
    const [tracking] = this.require(request.number, request.apiKey);
    return this.push(tracking!, request.event ?? 'TRACKING_UPDATED', request.url);
  }

  /**
   * Sends the exact body of an earlier delivery again (signed with the key that sent it), to
   * `url` or its own URL: a late or repeated push, as the real provider's retries and queues
   * deliver them, after newer ones. The event history in it is the one of that moment.
   */
  async replayWebhook(request: {
    index: number;
    url?: string;
  }): Promise<PushResult & { body: string }> {
    const earlier = this.state.deliveries[request.index];
    const apiKey = this.deliveryKeys[request.index];
    if (!earlier || apiKey === undefined)
      throw new SimError(404, `no webhook delivery ${request.index}`);
    return this.send(
      { url: request.url ?? earlier.url, body: earlier.body, apiKey },
      { number: earlier.number, event: earlier.event, replay_of: request.index },
    );
  }

  failNext(endpoint: TrackEndpoint | '*', spec: FaultSpec = {}): void {
    if (endpoint !== '*' && !TRACK_ENDPOINTS.includes(endpoint)) {
      throw new SimError(400, `unknown endpoint '${String(endpoint)}'`);
    }
    this.state.faults.add(endpoint, spec);
  }

  /** Also restarts the `alternate` sequence, whose first wrong-key answer is then HTTP 200. */
  setAuthStyle(style: AuthStyle): void {
    this.state.authStyle = style;
    this.state.authFailures = 0;
  }

  reset(): void {
    this.state.reset();
    this.rateLimiter.reset();
  }

  /** Resolves when every automatic webhook started so far has finished (all retries). */
  async flushWebhooks(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Pushes TRACKING_STOPPED for trackings stopped through the API, if the account has a URL. */
  notifyStopped(trackings: Tracking[]): void {
    for (const t of trackings) this.autoPush(t, 'TRACKING_STOPPED', true);
  }

  private autoPush(t: Tracking, event: WebhookEvent, evenIfStopped = false): void {
    const url = this.state.keys.get(t.apiKey)?.webhookUrl;
    if (!url || (t.state === 'Stopped' && !evenIfStopped)) return;
    const p = this.push(t, event, url).catch(() => undefined);
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private async push(
    t: Tracking,
    event: WebhookEvent,
    url: string,
  ): Promise<PushResult & { body: string }> {
    const item = trackInfoItem(t, this.clock);
    const body = JSON.stringify({ event, data: item });
    return this.send({ url, body, apiKey: t.apiKey }, { number: t.number, event });
  }

  private async send(
    push: { url: string; body: string; apiKey: string },
    about: { number: string; event: string; replay_of?: number },
  ): Promise<PushResult & { body: string }> {
    const result = await pushSigned({
      ...push,
      maxAttempts: this.options.webhookMaxAttempts ?? 3,
      retryDelayMs: this.options.webhookRetryDelayMs ?? 500,
    });
    const index = this.state.deliveries.push({
      url: push.url,
      ...about,
      statuses: result.statuses,
      delivered: result.delivered,
      body: push.body,
    });
    this.deliveryKeys[index - 1] = push.apiKey;
    return { ...result, body: push.body };
  }

  private require(number: string, apiKey?: string): Tracking[] {
    const found = this.state.findTrackings(number, apiKey);
    if (found.length === 0)
      throw new SimError(404, `tracking number '${number}' is not registered`);
    return found;
  }

  private view(t: Tracking): TrackingView {
    return {
      api_key: t.apiKey,
      number: t.number,
      carrier: t.carrier,
      carrier_name: findCarrier(t.carrier)?.name ?? null,
      tag: t.tag,
      tracking_state: t.state,
      retracked: t.retracked,
      script: t.script,
      step: t.step,
      registered_at: t.registeredAt.toISOString(),
      status: t.status,
      sub_status: t.subStatus,
      track_info: trackInfoItem(t, this.clock).track_info,
    };
  }
}
