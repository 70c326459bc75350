/** One series of a day chart: its name in the legend and its bars' colour class. */
export interface DaySeries {
  name: string;
  /** A class of charts.css giving the bars and the legend swatch their colour. */
  tone: 'series-a' | 'series-b' | 'series-error';
}

/**
 * Counts per day as CSS bars, the series of a day side by side, with a y axis (0 and the peak),
 * the first and last dates under it and a legend. Each day is also read out as text (hidden), so
 * the chart says the same to a screen reader.
 */
export function DayChart(props: {
  caption: string;
  series: DaySeries[];
  days: Array<{ date: string; values: number[] }>;
}) {
  const peak = Math.max(1, ...props.days.flatMap((day) => day.values));
  const first = props.days[0]?.date;
  const last = props.days[props.days.length - 1]?.date;
  return (
    <figure class="day-chart">
      <figcaption>{props.caption}</figcaption>
      <ul class="legend">
        {props.series.map((series) => (
          <li key={series.name}>
            <span class={`swatch ${series.tone}`} aria-hidden="true" /> {series.name}
          </li>
        ))}
      </ul>
      <div class="day-chart-plot">
        <div class="y-axis" aria-hidden="true">
          <span>{peak}</span>
          <span>0</span>
        </div>
        <ol class="bars" aria-label={props.caption}>
          {props.days.map((day) => {
            const said = `${day.date}: ${props.series
              .map((series, i) => `${day.values[i] ?? 0} ${series.name.toLowerCase()}`)
              .join(', ')}`;
            return (
              <li key={day.date} title={said}>
                {props.series.map((series, i) => (
                  <span
                    key={series.name}
                    class={`bar ${series.tone}`}
                    style={{ height: `${((day.values[i] ?? 0) / peak) * 100}%` }}
                  />
                ))}
                <span class="visually-hidden">{said}</span>
              </li>
            );
          })}
        </ol>
      </div>
      <div class="x-axis" aria-hidden="true">
        <span>{first}</span>
        <span>{last}</span>
      </div>
    </figure>
  );
}
