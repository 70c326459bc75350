import { formatDate } from '../../components/confirm.js';
import { Empty } from '../../components/states.js';
import { DELIVERY_STATUSES } from '@inventory/rules';
import type { Instance, TransitStats } from '../../api-types.js';
import { label } from './instance.js';

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

/** The live summary from GET instance. */
export function Dashboard(props: { instance: Instance }) {
  const { instance } = props;
  const counts = instance.status_counts;
  const peak = Math.max(1, ...DELIVERY_STATUSES.map((status) => counts[status] ?? 0));
  const errors = instance.registration_errors;
  return (
    <div class="dashboard">
      <section class="card" aria-labelledby="quota-h">
        <h2 id="quota-h">Quota</h2>
        <QuotaGauge
          quota={instance.quota}
          threshold={instance.quota_alert_threshold}
          error={instance.quota_error}
        />
        <p>
          Webhook URL for the provider's dashboard:{' '}
          <code data-testid="webhook-url">{instance.webhook_url}</code>
        </p>
        <p>
          Connection “{instance.name}”, instance id{' '}
          <span data-testid="instance-id">{instance.id}</span> (to open it from another browser).
        </p>
        <p>
          Last webhook: {formatDate(instance.last_webhook_at)} · Last carrier event:{' '}
          {formatDate(instance.last_event_at)}
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
              <span class="hbar-label">{label(status)}</span>
              <span class="hbar" style={{ width: `${((counts[status] ?? 0) / peak) * 100}%` }} />
              <span class="hbar-value" data-status={status}>
                {counts[status] ?? 0}
              </span>
            </li>
          ))}
        </ul>
        <p>Pending registrations: {instance.pending_registration_count}</p>
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
