import { formatDate } from '../../components/confirm.js';
import { ApiList } from './api-list.js';
import { ACTIVITY_EVENTS } from '@inventory/events/browser';
import {
  ACTIVITY_SORTS,
  DELIVERY_STATUSES,
  TRACKABLE_TYPE_SLUGS,
  TRACKING_SORTS,
  WEBHOOK_LOG_SORTS,
  WEBHOOK_RESULTS,
} from '@inventory/rules';
import type { ActivityRow, Instance, TrackingRow, WebhookRow } from '../../api-types.js';
import { label, PARCEL_PAGE, PREFIX } from './instance.js';
import { causerName, useMembers } from './members.js';
import { StatusBadge } from './status-badge.js';
import { Link } from '../../components/link.js';
import { useState } from 'preact/hooks';
import { ReprocessAll, ReprocessRow } from './webhook-reprocess.js';

/** The carriers the instance has seen, by name, with their code as the filter's value. */
export type CarriersSeen = Instance['carriers_seen'];

const carrierChoices = (carriers: CarriersSeen) =>
  carriers.map((carrier) => ({
    value: String(carrier.carrier_code),
    label: carrier.carrier_name
      ? `${carrier.carrier_name} (${carrier.carrier_code})`
      : `Carrier ${carrier.carrier_code}`,
  }));

export function Trackings(props: { instanceId: number; carriers: CarriersSeen }) {
  return (
    <ApiList<TrackingRow>
      title="Trackings"
      path={`${PREFIX}/instances/${props.instanceId}/trackings`}
      filters={[
        { param: 'filter[search]', label: 'Tracking number', type: 'text' },
        {
          param: 'filter[delivery_status]',
          label: 'Status',
          type: 'choices',
          choices: DELIVERY_STATUSES,
        },
        {
          param: 'filter[carrier_code]',
          label: 'Carrier',
          type: 'choices',
          choices: carrierChoices(props.carriers),
        },
        {
          param: 'filter[trackable_type]',
          label: 'Type',
          type: 'choices',
          choices: TRACKABLE_TYPE_SLUGS,
        },
        { param: 'filter[date_from]', label: 'Created from', type: 'date' },
        { param: 'filter[date_to]', label: 'Created to', type: 'date' },
        { param: 'filter[stalled]', label: 'Stalled only', type: 'flag' },
        { param: 'filter[late]', label: 'Late only', type: 'flag' },
      ]}
      sorts={TRACKING_SORTS}
      defaultSort="-created_at"
      empty="No shipments are tracked yet."
      columns={[
        {
          label: 'Tracking number',
          render: (row) => (
            <Link to={`${PARCEL_PAGE}/trackings/${row.id}`}>
              <code class="tracking-number">{row.tracking_number}</code>
            </Link>
          ),
          text: (row) => row.tracking_number,
        },
        {
          label: 'For',
          render: (row) => row.trackable_label || label(row.trackable_type),
          text: (row) => row.trackable_label || label(row.trackable_type),
        },
        {
          label: 'Carrier',
          render: (row) => row.carrier_name ?? '—',
          text: (row) => row.carrier_name,
        },
        {
          label: 'Registered',
          render: (row) =>
            row.registered_at
              ? formatDate(row.registered_at)
              : row.registration_error
                ? 'failed'
                : 'pending',
          text: (row) => row.registered_at ?? (row.registration_error ? 'failed' : 'pending'),
        },
        {
          label: 'Status',
          render: (row) => <StatusBadge row={row} />,
          text: (row) => row.delivery_status,
        },
        {
          label: 'Latest event',
          render: (row) => row.registration_error ?? row.latest_event_description ?? '—',
          text: (row) => row.registration_error ?? row.latest_event_description,
        },
        {
          label: 'Last event',
          render: (row) => formatDate(row.last_event_at),
          text: (row) => row.last_event_at,
        },
        {
          label: 'Estimated',
          render: (row) => formatDate(row.estimated_delivery_at),
          text: (row) => row.estimated_delivery_at,
        },
        {
          label: 'Delivered',
          render: (row) => formatDate(row.delivered_at),
          text: (row) => row.delivered_at,
        },
      ]}
    />
  );
}

export function WebhookLog(props: { instanceId: number }) {
  const log = `${PREFIX}/instances/${props.instanceId}/webhooks`;
  // Read again once a reprocess is queued or a job completes.
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((value) => value + 1);
  return (
    <>
      <ReprocessAll log={log} onDone={reload} />
      <ApiList<WebhookRow>
        title="Webhook log"
        path={log}
        version={version}
        filters={[
          { param: 'filter[tracking_number]', label: 'Tracking number', type: 'text' },
          { param: 'filter[event_type]', label: 'Event types', type: 'text' },
          {
            param: 'filter[result]',
            label: 'Result',
            type: 'choices',
            choices: WEBHOOK_RESULTS,
          },
          { param: 'filter[date_from]', label: 'Received from', type: 'date' },
          { param: 'filter[date_to]', label: 'Received to', type: 'date' },
        ]}
        sorts={WEBHOOK_LOG_SORTS}
        defaultSort="-received_at"
        empty="No webhooks received yet."
        columns={[
          {
            label: 'Received',
            render: (row) => formatDate(row.received_at),
            text: (row) => row.received_at,
          },
          { label: 'Event', render: (row) => row.event_type, text: (row) => row.event_type },
          // Empty strings when the body had no number or nothing changed (ADR 0214).
          {
            label: 'Tracking number',
            render: (row) => <code>{row.tracking_number || '—'}</code>,
            text: (row) => row.tracking_number,
          },
          { label: 'Change', render: (row) => row.summary || '—', text: (row) => row.summary },
          {
            label: 'Result',
            render: (row) =>
              row.error_message ? `${row.result}: ${row.error_message}` : row.result,
            text: (row) => (row.error_message ? `${row.result}: ${row.error_message}` : row.result),
          },
          {
            label: 'Took',
            render: (row) => `${row.processing_duration_ms} ms`,
            text: (row) => row.processing_duration_ms,
          },
          { label: 'Attempts', render: (row) => row.attempts, text: (row) => row.attempts },
          {
            label: 'Reprocess',
            render: (row) => <ReprocessRow log={log} row={row} onDone={reload} />,
          },
        ]}
      />
    </>
  );
}

export function ActivityLog(props: { instanceId: number }) {
  const members = useMembers();
  const people = [...members.values()].map((member) => ({
    value: String(member.id),
    label: member.name,
  }));
  return (
    <ApiList<ActivityRow>
      title="Activity"
      path={`${PREFIX}/instances/${props.instanceId}/activity`}
      filters={[
        { param: 'filter[search]', label: 'Search', type: 'text' },
        { param: 'filter[event_type]', label: 'Events', type: 'choices', choices: ACTIVITY_EVENTS },
        // By name for admins who may list the members (ADR 0124); ids typed by hand otherwise.
        people.length > 0
          ? { param: 'filter[causer_id]', label: 'User', type: 'choices', choices: people }
          : { param: 'filter[causer_id]', label: 'User ids', type: 'text' },
        { param: 'filter[date_from]', label: 'From', type: 'date' },
        { param: 'filter[date_to]', label: 'To', type: 'date' },
      ]}
      sorts={ACTIVITY_SORTS}
      defaultSort="-created_at"
      empty="No activity yet."
      columns={[
        {
          label: 'When',
          render: (row) => formatDate(row.created_at),
          text: (row) => row.created_at,
        },
        { label: 'Event', render: (row) => label(row.event), text: (row) => row.event },
        {
          label: 'Description',
          render: (row) => row.description ?? '—',
          text: (row) => row.description,
        },
        {
          label: 'User',
          render: (row) => causerName(members, row.causer_id),
          text: (row) => causerName(members, row.causer_id),
        },
      ]}
    />
  );
}
