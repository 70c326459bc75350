import type { Logger } from '@inventory/platform';
import { ProviderBreakers } from './breakers.js';
import { ALREADY_REGISTERED_CODE, classifyFailure, ProviderError } from './errors.js';
import type { TrackInfo } from '../domain/track-info.js';
import type { Pacer } from './pacer.js';
import { providerMetrics, type ProviderMetrics } from './provider-metrics.js';

export interface ProviderClientOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Paces calls per API key to the provider's limit (`RedisPacer` in production: across replicas). */
  pacer: Pacer;
  breakerResetMs: number;
  /** Keys that keep a breaker at once (least recently used dropped first); default 1000. */
  breakerMaxKeys?: number;
  logger: Logger;
  /** Counters and histograms on the service's registry (a private set when omitted). */
  metrics?: ProviderMetrics;
}

export interface ProviderQuota {
  used: number;
  total: number;
  remaining: number;
}

export interface TrackItem {
  number: string;
  carrier?: number;
  tag?: string;
}

export interface BatchResult {
  /** `already_registered`: register's -18019901, the account holds the number (maybe stopped). */
  accepted: Array<{ number: string; carrier: number | null; already_registered?: boolean }>;
  rejected: Array<{ number: string; code: number; message: string }>;
}

export interface TrackInfoResult {
  accepted: Array<{ number: string; carrier: number | null; track_info: TrackInfo | null }>;
  rejected: BatchResult['rejected'];
}

/** The provider's limit on numbers per call. */
export const MAX_BATCH = 40;

interface Envelope {
  code?: number;
  data?: {
    accepted?: Array<{ number: string; carrier?: number; track_info?: unknown }>;
    rejected?: Array<{ number: string; error?: { code?: number; message?: string } }>;
    errors?: Array<{ code?: number; message?: string }>;
    quota_total?: number;
    quota_used?: number;
    quota_remain?: number;
  };
}

/**
 * The one way to talk to the parcel provider (17TRACK v2.2 style): the
 * `17token` header, a timeout per call, per-key pacing to the provider's rate
 * limit, batches of at most 40, a circuit breaker per key under a shared one for outages
 * (ADR 0211), and one error classification (`invalid_key` or `api_error`). The key is never
 * logged.
 */
export class ProviderClient {
  readonly breakers: ProviderBreakers<Envelope['data']>;
  private readonly pacer: Pacer;
  readonly metrics: ProviderMetrics;

  constructor(private readonly options: ProviderClientOptions) {
    this.pacer = options.pacer;
    this.metrics = options.metrics ?? providerMetrics();
    this.breakers = new ProviderBreakers(
      (endpoint: string, apiKey: string, body: unknown) => {
        const waited = this.metrics.pacerWait.startTimer({ endpoint });
        return this.pacer.run(apiKey, () => {
          waited();
          return this.send(endpoint, apiKey, body);
        });
      },
      { resetMs: options.breakerResetMs, maxKeys: options.breakerMaxKeys },
    );
  }

  async getQuota(apiKey: string): Promise<ProviderQuota> {
    const data = await this.call('getquota', apiKey, {});
    const total = Number(data?.quota_total ?? 0);
    const used = Number(data?.quota_used ?? 0);
    return { used, total, remaining: Number(data?.quota_remain ?? Math.max(0, total - used)) };
  }

  /** Registers numbers; "already registered" counts as accepted. */
  register(apiKey: string, items: TrackItem[]): Promise<BatchResult> {
    return this.batched('register', apiKey, items);
  }

  /** The latest `track_info` of registered numbers, 40 per call. */
  async getTrackInfo(apiKey: string, items: TrackItem[]): Promise<TrackInfoResult> {
    const result: TrackInfoResult = { accepted: [], rejected: [] };
    for (let start = 0; start < items.length; start += MAX_BATCH) {
      const data = await this.call('gettrackinfo', apiKey, items.slice(start, start + MAX_BATCH));
      for (const item of data?.accepted ?? [])
        result.accepted.push({
          number: item.number,
          carrier: item.carrier ?? null,
          track_info: (item.track_info ?? null) as TrackInfo | null,
        });
      for (const item of data?.rejected ?? [])
        result.rejected.push({
          number: item.number,
          code: Number(item.error?.code ?? 0),
          message: item.error?.message ?? 'Rejected by the provider.',
        });
    }
    return result;
  }

  stopTrack(apiKey: string, items: TrackItem[]): Promise<BatchResult> {
    return this.batched('stoptrack', apiKey, items);
  }

  /** Tracks stopped numbers again, at no quota cost; the provider allows it once per number. */
  retrack(apiKey: string, items: TrackItem[]): Promise<BatchResult> {
    return this.batched('retrack', apiKey, items);
  }

  /** Forgets numbers, so the account can register them again (which costs a unit). */
  deleteTrack(apiKey: string, items: TrackItem[]): Promise<BatchResult> {
    return this.batched('deletetrack', apiKey, items);
  }

  private async batched(
    endpoint: string,
    apiKey: string,
    items: TrackItem[],
  ): Promise<BatchResult> {
    const result: BatchResult = { accepted: [], rejected: [] };
    for (let start = 0; start < items.length; start += MAX_BATCH) {
      const data = await this.call(endpoint, apiKey, items.slice(start, start + MAX_BATCH));
      for (const item of data?.accepted ?? [])
        result.accepted.push({ number: item.number, carrier: item.carrier ?? null });
      for (const item of data?.rejected ?? []) {
        const code = Number(item.error?.code ?? 0);
        if (endpoint === 'register' && code === ALREADY_REGISTERED_CODE) {
          result.accepted.push({ number: item.number, carrier: null, already_registered: true });
        } else {
          result.rejected.push({
            number: item.number,
            code,
            message: item.error?.message ?? 'Rejected by the provider.',
          });
        }
      }
    }
    return result;
  }

  private async call(endpoint: string, apiKey: string, body: unknown): Promise<Envelope['data']> {
    try {
      const data = await this.breakers.fire(endpoint, apiKey, body);
      this.metrics.calls.inc({ endpoint, outcome: 'ok' });
      return data;
    } catch (error) {
      const open = (error as { code?: string }).code === 'EOPENBREAKER';
      this.metrics.calls.inc({
        endpoint,
        outcome: open ? 'circuit_open' : error instanceof ProviderError ? error.code : 'api_error',
      });
      if (error instanceof ProviderError) throw error;
      if (open) {
        throw new ProviderError(
          'api_error',
          this.breakers.shared.opened
            ? 'The parcel-tracking provider is unavailable; try again shortly.'
            : 'The parcel-tracking provider keeps failing calls with this API key; try again shortly.',
        );
      }
      throw new ProviderError('api_error', 'The parcel-tracking provider call failed.');
    }
  }

  private async send(endpoint: string, apiKey: string, body: unknown): Promise<Envelope['data']> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/track/v2.2/${endpoint}`;
    let response: Response;
    const timer = this.metrics.duration.startTimer({ endpoint });
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', '17token': apiKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      timer();
      const timedOut = (error as Error).name === 'TimeoutError';
      this.options.logger.warn(
        { endpoint, reason: timedOut ? 'timeout' : String((error as Error).message) },
        'provider call failed',
      );
      throw new ProviderError(
        'api_error',
        timedOut
          ? 'The parcel-tracking provider did not answer in time.'
          : 'The parcel-tracking provider could not be reached.',
        { unreachable: true },
      );
    }
    const envelope = (await response.json().catch(() => ({}))) as Envelope;
    timer();
    const code = typeof envelope.code === 'number' ? envelope.code : undefined;
    if (response.ok && code === 0) return envelope.data;
    const failure = classifyFailure(response.status, code, describe(response.status, envelope));
    this.options.logger.warn(
      { endpoint, http_status: response.status, provider_code: code, classified: failure.code },
      'provider refused the call',
    );
    throw failure;
  }
}

function describe(httpStatus: number, envelope: Envelope): string {
  if (httpStatus === 429)
    return 'The parcel-tracking provider rate limit was exceeded; try again shortly.';
  if (httpStatus >= 500) return `The parcel-tracking provider failed (HTTP ${httpStatus}).`;
  const first = envelope.data?.errors?.[0];
  return first?.message
    ? `The parcel-tracking provider refused the request: ${first.message}`
    : `The parcel-tracking provider refused the request (code ${envelope.code ?? httpStatus}).`;
}
