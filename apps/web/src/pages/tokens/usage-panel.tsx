import type { Usage } from '../../api-types.js';
import { formatDate } from '../../components/confirm.js';

/** Requests per day as CSS bars (errors stacked in red), with the headline numbers. */
export function UsagePanel(props: { usage: Usage }) {
  const { usage } = props;
  const peak = Math.max(1, ...usage.requests_per_day.map((day) => day.requests));
  return (
    <div class="usage">
      <dl class="stats">
        <div>
          <dt>Requests ({usage.days} days)</dt>
          <dd>{usage.total_requests}</dd>
        </div>
        <div>
          <dt>Error rate</dt>
          <dd>{(usage.error_rate * 100).toFixed(1)}%</dd>
        </div>
        <div>
          <dt>Latency p50 / p95</dt>
          <dd>
            {usage.latency_ms.p50} / {usage.latency_ms.p95} ms
          </dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd>{usage.last_used_at ? formatDate(usage.last_used_at) : 'never'}</dd>
        </div>
      </dl>
      <figure>
        <figcaption>Requests per day</figcaption>
        <ol class="bars" aria-label="Requests per day">
          {usage.requests_per_day.map((day) => (
            <li
              key={day.date}
              title={`${day.date}: ${day.requests} requests, ${day.errors} errors`}
            >
              <span class="bar" style={{ height: `${(day.requests / peak) * 100}%` }}>
                <span
                  class="bar-errors"
                  style={{ height: `${day.requests ? (day.errors / day.requests) * 100 : 0}%` }}
                />
              </span>
              <span class="visually-hidden">
                {day.date}: {day.requests} requests, {day.errors} errors
              </span>
            </li>
          ))}
        </ol>
      </figure>
    </div>
  );
}
