const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
];

/** "3 minutes ago", "in 2 days": how far `date` is from `now`, in the largest fitting unit. */
export function relativeTime(date: Date, now: Date = new Date()): string {
  let amount = (date.getTime() - now.getTime()) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) return RELATIVE.format(Math.round(amount), unit);
    amount /= size;
  }
  return RELATIVE.format(Math.round(amount), 'year');
}

/** A moment as a relative time, the exact one on hover (and to assistive technology). */
export function Time(props: { value: string | null | undefined; testId?: string }) {
  if (!props.value) return <span data-testid={props.testId}>—</span>;
  const date = new Date(props.value);
  const exact = date.toLocaleString();
  return (
    <time dateTime={date.toISOString()} title={exact} data-testid={props.testId}>
      {relativeTime(date)}
    </time>
  );
}
