import { Fragment } from 'preact';
import { api } from '../../api.js';
import type { Checkpoint, TrackingDetail, TrackingRow } from '../../api-types.js';
import { Link } from '../../components/link.js';
import { Async, Empty, useLoad } from '../../components/states.js';
import { Time } from '../../components/time.js';
import { label, PARCEL_PAGE, PREFIX } from './instance.js';
import { StatusBadge } from './status-badge.js';

/** The moments of a shipment that are known, in the order they happen. */
const MOMENTS = [
  ['registered_at', 'Registered with the provider'],
  ['picked_up_at', 'Picked up'],
  ['last_event_at', 'Last carrier event'],
  ['estimated_delivery_at', 'Estimated delivery'],
  ['delivered_at', 'Delivered'],
  ['stopped_at', 'Tracking stopped'],
] as const;

function Facts(props: { row: TrackingRow }) {
  const { row } = props;
  return (
    <section class="card" aria-labelledby="shipment-h">
      <h2 id="shipment-h">
        <code class="tracking-number">{row.tracking_number}</code> <StatusBadge row={row} />
      </h2>
      <dl class="facts">
        <dt>Sub-status</dt>
        <dd data-testid="sub-status">{row.sub_status ?? '—'}</dd>
        <dt>Carrier</dt>
        <dd>
          {row.carrier_name ?? (row.carrier_code ? `#${row.carrier_code}` : 'not detected yet')}
        </dd>
        <dt>Latest event</dt>
        <dd>
          {row.registration_error ? (
            <span class="bad">Registration failed: {row.registration_error}</span>
          ) : (
            [row.latest_event_description, row.latest_event_location].filter(Boolean).join(' — ') ||
            '—'
          )}
        </dd>
        <dt>For</dt>
        <dd>
          {/* The trackable record's page in the main app (a path outside /app). */}
          <a href={row.trackable_url}>{row.trackable_label || label(row.trackable_type)}</a> (
          {label(row.trackable_type)})
        </dd>
        {MOMENTS.filter(([key]) => row[key]).map(([key, text]) => (
          <Fragment key={key}>
            <dt>{text}</dt>
            <dd>
              <Time value={row[key]} />
            </dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

/** The carrier's checkpoints, newest first, as the service keeps them. */
function Timeline(props: { checkpoints: Checkpoint[] }) {
  return (
    <section class="card" aria-labelledby="shipment-timeline-h">
      <h2 id="shipment-timeline-h">Carrier checkpoints</h2>
      {props.checkpoints.length === 0 ? (
        <Empty>The carrier has reported no checkpoint yet.</Empty>
      ) : (
        <ol class="timeline checkpoints" aria-label="Checkpoints">
          {props.checkpoints.map((checkpoint, index) => (
            <li key={`${checkpoint.occurred_at}:${index}`} data-status={checkpoint.status}>
              <Time value={checkpoint.occurred_at} /> · {checkpoint.description || '—'}
              {checkpoint.location ? ` — ${checkpoint.location}` : ''}
              {checkpoint.sub_status ? <span class="hint"> ({checkpoint.sub_status})</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Webhooks(props: { rows: TrackingDetail['webhooks']; total: number }) {
  return (
    <section class="card" aria-labelledby="shipment-webhooks-h">
      <h2 id="shipment-webhooks-h">Inbound webhooks</h2>
      {props.rows.length === 0 ? (
        <Empty>No webhook has mentioned this shipment yet.</Empty>
      ) : (
        <>
          <ol class="timeline" aria-label="Inbound webhooks">
            {props.rows.map((row) => (
              <li key={row.id}>
                <Time value={row.received_at} /> · {row.summary || row.event_type} ·{' '}
                <span class={row.result === 'failed' ? 'bad' : undefined}>
                  {row.result}
                  {row.error_message ? `: ${row.error_message}` : ''}
                </span>
              </li>
            ))}
          </ol>
          <More shown={props.rows.length} total={props.total} what="webhooks" />
        </>
      )}
    </section>
  );
}

function Activity(props: { rows: TrackingDetail['activity']; total: number }) {
  return (
    <section class="card" aria-labelledby="shipment-activity-h">
      <h2 id="shipment-activity-h">Activity</h2>
      {props.rows.length === 0 ? (
        <Empty>No activity mentions this shipment yet.</Empty>
      ) : (
        <>
          <ol class="timeline" aria-label="Activity">
            {props.rows.map((row) => (
              <li key={row.id}>
                <Time value={row.created_at} /> · {label(row.event)} · {row.description}
              </li>
            ))}
          </ol>
          <More shown={props.rows.length} total={props.total} what="rows" />
        </>
      )}
    </section>
  );
}

/** The answer carries the newest rows only; says how many more the full lists hold. */
function More(props: { shown: number; total: number; what: string }) {
  return props.total > props.shown ? (
    <p class="hint">
      The newest {props.shown} of {props.total} {props.what}.
    </p>
  ) : null;
}

/**
 * One shipment: its status and carrier, the record it is for, its carrier checkpoints, its
 * webhooks and activity.
 */
export function Shipment(props: { instanceId: number; id: string }) {
  const row = useLoad(
    () =>
      api<{ data: TrackingDetail }>(
        'GET',
        `${PREFIX}/instances/${props.instanceId}/trackings/${encodeURIComponent(props.id)}`,
      ),
    `shipment:${props.id}`,
  );
  return (
    <section aria-label="Shipment">
      <p class="crumbs">
        <Link to={`${PARCEL_PAGE}/trackings`}>Trackings</Link> › Shipment #{props.id}
      </p>
      <Async state={row}>
        {({ data }) => (
          <div class="shipment">
            <Facts row={data} />
            <Timeline checkpoints={data.checkpoints} />
            <Webhooks rows={data.webhooks} total={data.webhooks_total} />
            <Activity rows={data.activity} total={data.activity_total} />
          </div>
        )}
      </Async>
    </section>
  );
}
