import { alertEntry } from '@inventory/events';
import type { Logger, Outbox } from '@inventory/platform';
import {
  shipmentWatchOf,
  stalledHoursFor,
  stalledThresholds,
  type ShipmentWatchSettings,
} from '../domain/shipment-watch.js';
import { shipmentAlertProperties, trackableLabel } from '../domain/shipment-alert.js';
import type { InstanceDocument } from '../store/instance.js';
import type { InstanceRepository } from '../store/instance-repository.js';
import type { WatchAlert } from '../store/tracking-queries.js';
import type { TrackingRepository } from '../store/tracking-repository.js';
import type { TrackingDocument } from '../store/tracking.js';

const BATCH = 100;
/** A pass alerts at most this many rows of one instance; the next pass goes on (a switch turned on late). */
const MOST_PER_PASS = 1_000;

class AlreadyAlerted extends Error {}

/**
 * The watch sweep (ADR 0218): raises one in-app alert per shipment the first time it is stalled,
 * and one the first time it is late, for each instance whose switch is on. The row's marker
 * (`stalled_alerted_at`, `late_alerted_at`) is written with the alert through the outbox, and only
 * while it is still unset, so repeated passes, restarts and two replicas never repeat an alert;
 * the alert's id is the row's as well, so even a republish is absorbed.
 */
export class AlertWatchedShipments {
  constructor(
    private readonly deps: {
      instances: InstanceRepository;
      trackings: TrackingRepository;
      outbox: Outbox;
      logger: Logger;
      now?: () => Date;
    },
  ) {}

  /** One pass over every instance; resolves with the alerts raised. */
  async runOnce(): Promise<{ stalled: number; late: number }> {
    const raised = { stalled: 0, late: 0 };
    for (const instance of await this.deps.instances.listAcrossTenants()) {
      const settings = shipmentWatchOf(instance.shipment_watch);
      const now = this.deps.now?.() ?? new Date();
      if (settings.stalled_alert)
        raised.stalled += await this.alertInstance(instance, settings, {
          kind: 'stalled',
          now,
          thresholds: stalledThresholds(settings),
        });
      if (settings.late_alert)
        raised.late += await this.alertInstance(instance, settings, { kind: 'late', now });
    }
    return raised;
  }

  private async alertInstance(
    instance: InstanceDocument,
    settings: ShipmentWatchSettings,
    watch: WatchAlert,
  ): Promise<number> {
    const { trackings, outbox } = this.deps;
    const tenantId = instance.tenant_id;
    let raised = 0;
    for (let looked = 0; looked < MOST_PER_PASS; looked += BATCH) {
      const rows = await trackings.watchAlertsDue(tenantId, instance.id, watch, BATCH);
      for (const row of rows) {
        const entry = watchAlertEntry(tenantId, row, settings, watch);
        const marked = await outbox
          .withEvents([entry], async () => {
            // Throwing drops the alert written for this attempt: another sweep raised it.
            if (!(await trackings.markWatchAlerted(tenantId, row.id, watch.kind, watch.now)))
              throw new AlreadyAlerted();
          })
          .then(
            () => true,
            (error: unknown) => {
              if (error instanceof AlreadyAlerted) return false;
              throw error;
            },
          );
        if (marked) raised += 1;
      }
      if (rows.length < BATCH) break;
    }
    if (raised > 0)
      this.deps.logger.info(
        { tenant_id: tenantId, instance_id: instance.id, kind: watch.kind, raised },
        'shipment watch alerts raised',
      );
    return raised;
  }
}

function watchAlertEntry(
  tenantId: string,
  row: TrackingDocument,
  settings: ShipmentWatchSettings,
  watch: WatchAlert,
) {
  const carrier = row.carrier_name ?? (row.carrier_code ? `carrier ${row.carrier_code}` : null);
  const shipment = `${trackableLabel(row)} (${row.tracking_number}${carrier ? `, ${carrier}` : ''})`;
  const properties = {
    ...shipmentAlertProperties(row),
    trackable_url: row.trackable_url,
    carrier_code: row.carrier_code,
  };
  const day = (date: Date | null) => date?.toISOString().slice(0, 10) ?? 'an unknown day';
  // The shipment's page in the web app (its checkpoint timeline), where a lost parcel is looked
  // into; the record's own page stays in the properties.
  const link = `/integrations/parcel-tracking/trackings/${row.id}`;
  if (watch.kind === 'stalled') {
    const hours = stalledHoursFor(settings, row.carrier_code);
    return alertEntry({
      tenantId,
      key: `shipment_stalled:${row.id}`,
      kind: 'shipment_stalled',
      title: 'Shipment stalled',
      message: `Shipment ${shipment} has had no carrier update for more than ${hours} hours; the last was on ${day(row.last_event_at)}.`,
      link,
      properties: { ...properties, last_event_at: row.last_event_at, stalled_after_hours: hours },
      occurredAt: watch.now,
    });
  }
  return alertEntry({
    tenantId,
    key: `shipment_late:${row.id}`,
    kind: 'shipment_late',
    title: 'Shipment late',
    message: `Shipment ${shipment} was expected by ${day(row.estimated_delivery_at)} and is not delivered.`,
    link,
    properties: { ...properties, estimated_delivery_at: row.estimated_delivery_at },
    occurredAt: watch.now,
  });
}
