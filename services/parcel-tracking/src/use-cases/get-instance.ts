import { shipmentWatchOf, stalledThresholds } from '../domain/shipment-watch.js';
import { notFound, type Logger, type Outbox, type SecretBox } from '@inventory/platform';
import type { DeliveryStatus } from '../domain/delivery-status.js';
import type { TransitSummary } from '../domain/transit.js';
import { dailyTrends, trendsSince, type Trends } from '../domain/trends.js';
import { ProviderError } from '../provider/errors.js';
import type { ProviderQuota } from '../provider/client.js';
import type { WebhookRegistry } from '../clients/webhook-registry.js';
import type { QuotaReader } from '../provider/quota-reader.js';
import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TransitDaysRepository } from '../store/transit-days-repository.js';
import { readTransit } from './read-transit.js';
import { checkQuotaAlert } from './check-quota-alert.js';
import { checkForecastAlert } from './check-forecast-alert.js';
import { quotaForecast, spentInWindow, type QuotaForecast } from '../domain/quota-forecast.js';

export interface InstanceDashboard {
  quota: ProviderQuota | null;
  quota_error: { code: string; message: string } | null;
  status_counts: Record<DeliveryStatus, number>;
  pending_registration_count: number;
  registration_errors: Array<{ message: string; count: number; last_failed_at: Date }>;
  last_webhook_at: Date | null;
  last_event_at: Date | null;
  transit: TransitSummary;
  stalled_count: number;
  late_count: number;
  carriers_seen: Array<{ carrier_code: number; carrier_name: string | null }>;
  trends: Trends;
  quota_forecast: QuotaForecast;
  quota_units_saved: number;
}

/**
 * The instance with its live dashboard. The provider and webhook-ingest are
 * asked in parallel with the local aggregates; when either fails the rest still
 * answers, and a quota failure is reported in `quota_error`.
 */
export class GetInstance {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      trackings: TrackingRepository;
      /** The instance's kept transit sums per day (ADR 0239). */
      transitDays: TransitDaysRepository;
      /** The live quota, cached briefly per key and shared by concurrent readers. */
      quotas: QuotaReader;
      secrets: SecretBox;
      registry: WebhookRegistry;
      outbox: Outbox;
      logger: Logger;
    },
  ) {}

  async execute(
    tenantId: string,
    id: number,
  ): Promise<{ instance: InstanceDocument; dashboard: InstanceDashboard }> {
    const { instances, trackings, transitDays, quotas, secrets, registry, outbox, logger } =
      this.deps;
    const instance = await instances.find(tenantId, id);
    if (!instance) throw notFound('Parcel-tracking instance not found.');
    const now = new Date();

    const quota = quotas.read(secrets.decrypt(instance.api_key_encrypted)).then(
      async (value) => {
        // Each quota read feeds the alert state machine; a failure there never fails the read.
        await checkQuotaAlert({ instances, outbox }, instance, value).catch((error: unknown) =>
          logger.warn({ err: error, instance_id: id }, 'quota alert check failed'),
        );
        return { quota: value, quota_error: null };
      },
      (error: unknown) => {
        const failure =
          error instanceof ProviderError
            ? error
            : new ProviderError('api_error', 'The parcel-tracking provider call failed.');
        return { quota: null, quota_error: { code: failure.code, message: failure.message } };
      },
    );
    const lastWebhookAt = registry.lastWebhookAt(id).catch((error: unknown) => {
      logger.warn(
        { err: error, instance_id: id },
        'webhook summary unavailable; last_webhook_at left null',
      );
      return null;
    });
    const [
      live,
      statusCounts,
      pending,
      errors,
      lastEventAt,
      transit,
      lastWebhook,
      watched,
      carriersSeen,
      registeredPerDay,
    ] = await Promise.all([
      quota,
      trackings.statusCounts(tenantId, id),
      trackings.pendingRegistrationCount(tenantId, id),
      trackings.registrationErrors(tenantId, id),
      trackings.lastEventAt(tenantId, id),
      readTransit({ trackings, transitDays, logger }, tenantId, id, now),
      lastWebhookAt,
      trackings.watchCounts(
        tenantId,
        id,
        now,
        stalledThresholds(shipmentWatchOf(instance.shipment_watch)),
      ),
      trackings.carriersSeen(tenantId, id),
      trackings.registrationsPerDay(tenantId, id, trendsSince(now)),
    ]);
    // The trends' days (30) hold the forecast's (14): no read of its own (ADR 0235).
    const forecast = quotaForecast(
      now,
      live.quota?.remaining ?? null,
      spentInWindow(now, registeredPerDay),
    );
    // The forecast alert runs on the same reads; its failure never fails the read either.
    await checkForecastAlert({ instances, outbox }, instance, forecast, live.quota !== null).catch(
      (error: unknown) =>
        logger.warn({ err: error, instance_id: id }, 'quota forecast alert check failed'),
    );
    return {
      instance,
      dashboard: {
        ...live,
        status_counts: statusCounts,
        pending_registration_count: pending,
        registration_errors: errors,
        last_webhook_at: lastWebhook,
        last_event_at: lastEventAt,
        transit: transit.summary,
        stalled_count: watched.stalled,
        late_count: watched.late,
        carriers_seen: carriersSeen,
        trends: dailyTrends(
          now,
          new Map([...registeredPerDay].map(([day, counts]) => [day, counts.registered])),
          // The kept transit sums count each day's deliveries (ADR 0239).
          transit.deliveredPerDay,
        ),
        quota_forecast: forecast,
        quota_units_saved: instance.quota_units_saved ?? 0,
      },
    };
  }
}
