import { DELIVERY_STATUSES, type DeliveryStatus } from '@inventory/rules';

/** The ten statuses are the gateway's filter values too: one definition in @inventory/rules. */
export { DELIVERY_STATUSES, type DeliveryStatus };

const PROVIDER_STATUS: Record<string, DeliveryStatus> = {
  NotFound: 'not_found',
  InfoReceived: 'info_received',
  InTransit: 'in_transit',
  AvailableForPickup: 'available_for_pickup',
  OutForDelivery: 'out_for_delivery',
  Delivered: 'delivered',
  DeliveryFailure: 'delivery_failure',
  Exception: 'exception',
  Expired: 'expired',
};

/**
 * Maps the provider's main status to ours. A row the provider has not reported
 * on yet (no status) is `pending`; an unknown future status is kept visible as
 * `exception` rather than dropped, so someone looks at it.
 */
export function mapProviderStatus(status: string | null | undefined): DeliveryStatus {
  if (!status) return 'pending';
  return PROVIDER_STATUS[status] ?? 'exception';
}

const PRESENTATION: Record<DeliveryStatus, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'gray' },
  info_received: { label: 'Info Received', color: 'blue' },
  in_transit: { label: 'In Transit', color: 'blue' },
  available_for_pickup: { label: 'Available for Pickup', color: 'purple' },
  out_for_delivery: { label: 'Out for Delivery', color: 'indigo' },
  delivered: { label: 'Delivered', color: 'green' },
  delivery_failure: { label: 'Delivery Failure', color: 'red' },
  exception: { label: 'Exception', color: 'orange' },
  expired: { label: 'Expired', color: 'gray' },
  not_found: { label: 'Not Found', color: 'yellow' },
};

/** delivery_status_label and delivery_status_color of a tracking row. */
export function presentStatus(status: DeliveryStatus): { label: string; color: string } {
  return PRESENTATION[status];
}

export function zeroStatusCounts(): Record<DeliveryStatus, number> {
  return Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 0])) as Record<
    DeliveryStatus,
    number
  >;
}

/** Statuses after which the provider no longer tracks the row. */
export const TERMINAL_STATUSES: readonly DeliveryStatus[] = ['delivered', 'expired'];
