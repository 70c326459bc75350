import type { Usage } from '../../api-types.js';
import { formatDate } from '../../components/confirm.js';
import { DayChart, type DaySeries } from '../../components/day-chart.js';

const USAGE_SERIES: DaySeries[] = [
  { name: 'Requests', tone: 'series-a' },
  { name: 'Errors', tone: 'series-error' },
];

/** The headline numbers, and requests and errors per day on the day chart (axes, dates, legend). */
export function UsagePanel(props: { usage: Usage }) {
  const { usage } = props;
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
      <DayChart
        caption="Requests per day"
        series={USAGE_SERIES}
        days={usage.requests_per_day.map((day) => ({
          date: day.date,
          values: [day.requests, day.errors],
        }))}
      />
    </div>
  );
}
