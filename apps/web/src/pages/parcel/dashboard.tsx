import { useEffect, useState } from 'preact/hooks';
import { formatDate } from '../../components/confirm.js';
import { DayChart } from '../../components/day-chart.js';
import { Link } from '../../components/link.js';
import { Empty } from '../../components/states.js';
import { Time } from '../../components/time.js';
import { DELIVERY_STATUSES } from '@inventory/rules';
import type { Instance, TransitStats } from '../../api-types.js';
import { label, PARCEL_PAGE } from './instance.js';

/** The trackings list filtered to one status: what a bucket opens. */
const bucketLink = (status: string) =>
  `${PARCEL_PAGE}/trackings?${new URLSearchParams({ 'filter[delivery_status]': status })}`;

function QuotaGauge(props: {
  quota: Instance['quota'];
  threshold: number;
  error?: Instance['quota_error'];
}) {
  if (!props.quota)
    return (
      <p class="state error" role="alert">
        Quota unavailable{props.error ? `: ${props.error.message}` : '.'}
      </p>
    );
  const { used, total, remaining } = props.quota;
  const percent = total > 0 ? Math.min(100, (used / total) * 100) : 0;
  const level = percent >= 100 ? 'exhausted' : percent >= props.threshold ? 'warning' : 'ok';
  return (
    <div class={`gauge ${level}`}>
      <meter
        min={0}
        max={total || 1}
        value={used}
        high={(total * props.threshold) / 100}
        optimum={0}
        aria-label="Quota used"
      >
        {used} of {total}
      </meter>
      <div class="gauge-track" aria-hidden="true">
        <span class="gauge-fill" style={{ width: `${percent}%` }} />
        <span class="gauge-threshold" style={{ left: `${props.threshold}%` }} />
      </div>
      <p>
        {used} of {total} used ({percent.toFixed(0)}%), {remaining} remaining. Alert at{' '}
        {props.threshold}%.
      </p>
    </div>
  );
}

/**
 * When the quota runs out at the recent registration rate (ADR 0235), and the units registration
 * saved by re-using the provider's registrations (ADR 0236).
 */
function QuotaForecast(props: { instance: Instance }) {
  const { quota_forecast: forecast, quota_forecast_alert_days: alertDays } = props.instance;
  const rate = `${forecast.daily_rate} a day over the last ${forecast.window_days} days`;
  return (
    <div data-testid="quota-forecast">
      {forecast.days_left === null || forecast.exhausted_on === null ? (
        <p>
          Forecast: {props.instance.quota ? 'no registrations' : 'unknown'} ({rate}).
        </p>
      ) : (
        <p class={alertDays > 0 && forecast.days_left < alertDays ? 'warning' : undefined}>
          Forecast: runs out in{' '}
          <strong data-count="days-left">
            {forecast.days_left} {forecast.days_left === 1 ? 'day' : 'days'}
          </strong>
          , on <time dateTime={forecast.exhausted_on}>{formatDay(forecast.exhausted_on)}</time> (
          {rate}).
        </p>
      )}
      <p>
        Quota units saved by re-used registrations:{' '}
        <span data-count="units-saved">{props.instance.quota_units_saved}</span>
        {alertDays > 0 ? `. Alert under ${alertDays} days left.` : '.'}
      </p>
    </div>
  );
}

/** A `YYYY-MM-DD` UTC day, in the reader's words (the day itself, never shifted by a zone). */
const formatDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });

// `on_time_rate` is already a percentage 0–100 (ADR 0200), null when no row had an estimate.
const onTime = (stats: TransitStats) =>
  stats.on_time_rate === null
    ? '—'
    : `${stats.on_time_rate}% (${stats.on_time_count} of ${stats.with_estimate_count})`;
const days = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} days`);

function TransitRow(props: { name: string; stats: TransitStats }) {
  return (
    <tr>
      <th scope="row">{props.name}</th>
      <td data-label="Delivered">{props.stats.delivered_count}</td>
      <td data-label="Average in transit">{days(props.stats.average_days_in_transit)}</td>
      <td data-label="On time">{onTime(props.stats)}</td>
    </tr>
  );
}

/**
 * The live summary from GET instance, read again every few seconds while it is open (the page
 * does the reading; this says when it last did, and offers to read now).
 */
export function Dashboard(props: {
  instance: Instance;
  loading: boolean;
  error?: unknown;
  onRefresh: () => void;
}) {
  const { instance } = props;
  const counts = instance.status_counts;
  const [updatedAt, setUpdatedAt] = useState(() => new Date());
  useEffect(() => setUpdatedAt(new Date()), [instance]);
  const tracked = DELIVERY_STATUSES.reduce((sum, status) => sum + (counts[status] ?? 0), 0);
  const peak = Math.max(1, ...DELIVERY_STATUSES.map((status) => counts[status] ?? 0));
  const errors = instance.registration_errors;
  return (
    <div class="dashboard">
      <div class="live row">
        <p class="hint">
          Updated <time dateTime={updatedAt.toISOString()}>{updatedAt.toLocaleTimeString()}</time>;
          refreshes by itself every few seconds.
          {props.error ? ' The last refresh failed; retrying.' : ''}
        </p>
        <button type="button" onClick={props.onRefresh} disabled={props.loading}>
          {props.loading ? 'Refreshing…' : 'Refresh now'}
        </button>
      </div>
      {tracked === 0 && (
        <section class="card onboarding" aria-labelledby="start-h">
          <h2 id="start-h">No shipments tracked yet</h2>
          <ol>
            <li>
              Paste the webhook URL below into your provider's dashboard, so status changes arrive
              as they happen.
            </li>
            <li>
              Shipments are tracked as they get a tracking number: fulfillments, inbound shipments,
              transfers, RMAs and vendor credits (
              <Link to={`${PARCEL_PAGE}/settings`}>choose which</Link>).
            </li>
            <li>Each one then shows here by status, and in Trackings with its latest event.</li>
          </ol>
        </section>
      )}
      <section class="card" aria-labelledby="quota-h">
        <h2 id="quota-h">Quota</h2>
        <QuotaGauge
          quota={instance.quota}
          threshold={instance.quota_alert_threshold}
          error={instance.quota_error}
        />
        <QuotaForecast instance={instance} />
        <p>
          Webhook URL for the provider's dashboard:{' '}
          <code data-testid="webhook-url">{instance.webhook_url}</code>
        </p>
        <p>Connection “{instance.name}”.</p>
        <p>
          Last webhook: <Time value={instance.last_webhook_at} testId="last-webhook" /> · Last
          carrier event: <Time value={instance.last_event_at} />
        </p>
        {!instance.is_automatic_sync_enabled && (
          <p class="warning">Automatic sync is off (kill switch).</p>
        )}
      </section>
      <section class="card" aria-labelledby="status-h">
        <h2 id="status-h">Shipments by status</h2>
        <ul class="hbars" data-testid="status-counts">
          {DELIVERY_STATUSES.map((status) => (
            <li key={status}>
              <Link class="hbar-label" to={bucketLink(status)}>
                {label(status)}
              </Link>
              <span class="hbar" style={{ width: `${((counts[status] ?? 0) / peak) * 100}%` }} />
              <span class="hbar-value" data-status={status}>
                {counts[status] ?? 0}
              </span>
            </li>
          ))}
        </ul>
        <p>Pending registrations: {instance.pending_registration_count}</p>
        <p data-testid="watch-counts">
          <Link to={`${PARCEL_PAGE}/trackings?filter%5Bstalled%5D=true`}>
            Stalled: <span data-count="stalled">{instance.stalled_count}</span>
          </Link>{' '}
          ·{' '}
          <Link to={`${PARCEL_PAGE}/trackings?filter%5Blate%5D=true`}>
            Late: <span data-count="late">{instance.late_count}</span>
          </Link>
        </p>
      </section>
      <section class="card" aria-labelledby="trends-h">
        <h2 id="trends-h">Last {instance.trends.days} days</h2>
        <DayChart
          caption="Shipments per day"
          series={[
            { name: 'Registered', tone: 'series-a' },
            { name: 'Delivered', tone: 'series-b' },
          ]}
          days={instance.trends.daily.map((day) => ({
            date: day.date,
            values: [day.registered, day.delivered],
          }))}
        />
      </section>
      <section class="card" aria-labelledby="regerr-h">
        <h2 id="regerr-h">Registration errors</h2>
        {errors.length === 0 ? (
          <Empty>No registration errors.</Empty>
        ) : (
          <ul>
            {errors.map((error) => (
              <li key={error.message}>
                {error.message} — {error.count}× (last {formatDate(error.last_failed_at)})
              </li>
            ))}
          </ul>
        )}
      </section>
      <section class="card" aria-labelledby="transit-h">
        <h2 id="transit-h">Transit (last {instance.transit.window_days} days)</h2>
        <div class="table-wrap">
          <table class="stack">
            <thead>
              <tr>
                <th scope="col">Carrier</th>
                <th scope="col">Delivered</th>
                <th scope="col">Average in transit</th>
                <th scope="col">On time</th>
              </tr>
            </thead>
            <tbody>
              <TransitRow name="All carriers" stats={instance.transit} />
              {instance.transit.carriers.map((carrier) => (
                <TransitRow
                  key={carrier.carrier_code}
                  name={carrier.carrier_name ?? String(carrier.carrier_code ?? '?')}
                  stats={carrier}
                />
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
