/**
 * The one table `npm run bench` prints: every row a cost per operation against a baseline
 * measured in the same run, CPU first (summed over every process of the system, so it holds
 * when processes share cores), latency beside the baseline's at the same paced rate, and
 * throughput at saturation for context.
 */
export interface Latency {
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
}

export interface Target {
  /** Most CPU per operation, as a multiple of the baseline's. */
  cpuRatio?: number;
  /** Judge `cpuRatio` on this process alone (e.g. the gateway's own cost) instead of the sum. */
  cpuOf?: string;
  p50Ms?: number;
  p95Ms?: number;
  p99Ms?: number;
}

export interface Measured {
  /** Operations counted (requests answered, webhooks processed, deliveries received…). */
  operations: number;
  /** CPU milliseconds each process spent over the measured window. */
  cpuMs: Record<string, number>;
  latency?: Latency;
  /** Operations that did not succeed (non-2xx, errors, lost). */
  failures?: number;
}

export interface RowInput {
  id: string;
  title: string;
  /** Paced rate in operations per second (0 when not paced). */
  rate: number;
  measured: Measured;
  baselineTitle: string;
  baseline: Measured;
  saturation?: { perSecond: number; baselinePerSecond: number };
  target?: Target;
  note?: string;
  /**
   * CPU milliseconds per second the system spent idle, measured in the same run before any row:
   * background timers (polls, sweeps) that a paced row pays for per second, not per request.
   */
  idleCpuMsPerSecond?: Record<string, number>;
}

export interface Row {
  id: string;
  title: string;
  rate: number;
  operations: number;
  failures: number;
  /** The baseline's own failures: a baseline that failed measured nothing, so no target is met. */
  baseline_failures: number;
  cpu_us_per_op: number;
  cpu_us_per_op_by_process: Record<string, number>;
  baseline: string;
  baseline_cpu_us_per_op: number;
  baseline_cpu_us_per_op_by_process: Record<string, number>;
  cpu_ratio: number;
  /** The ratio of `target.cpuOf` alone, when the target names one process. */
  own_cpu_ratio?: number;
  /**
   * The ratio once the system's idle CPU over the row's window is taken off: context beside
   * `cpu_ratio`, which targets are judged on. Only for paced rows with an idle reading.
   */
  net_of_idle_cpu_ratio?: number;
  latency?: Latency;
  baseline_latency?: Latency;
  saturation_per_s?: number;
  baseline_saturation_per_s?: number;
  target?: Target;
  /** Undefined without a target; false when any bound is missed or an operation failed. */
  target_met?: boolean;
  note?: string;
}

const round = (value: number, digits: number) => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
};

/** The sum of a record's values: CPU milliseconds over processes, say. */
export const sum = (values: Record<string, number>) =>
  Object.values(values).reduce((total, value) => total + value, 0);

/** CPU microseconds per operation, per process, largest first, zero-cost processes left out. */
export function perProcess(measured: Measured): Record<string, number> {
  const operations = Math.max(1, measured.operations);
  return Object.fromEntries(
    Object.entries(measured.cpuMs)
      .map(([name, ms]) => [name, round((ms * 1000) / operations, 1)] as const)
      .filter(([, us]) => us > 0)
      .sort((a, b) => b[1] - a[1]),
  );
}

export function cpuPerOperationUs(measured: Measured): number {
  return round((sum(measured.cpuMs) * 1000) / Math.max(1, measured.operations), 1);
}

function meets(row: Omit<Row, 'target_met'>, target: Target): boolean {
  const latency = row.latency;
  const within = (value: number | undefined, bound: number | undefined) =>
    bound === undefined || (value !== undefined && value < bound);
  return (
    row.failures === 0 &&
    row.baseline_failures === 0 &&
    (target.cpuRatio === undefined ||
      (target.cpuOf ? (row.own_cpu_ratio ?? Infinity) : row.cpu_ratio) <= target.cpuRatio) &&
    within(latency?.p50_ms, target.p50Ms) &&
    within(latency?.p95_ms, target.p95Ms) &&
    within(latency?.p99_ms, target.p99Ms)
  );
}

export function buildRow(input: RowInput): Row {
  const cpu = cpuPerOperationUs(input.measured);
  const baselineCpu = cpuPerOperationUs(input.baseline);
  const byProcess = perProcess(input.measured);
  const ratio = (us: number) => (baselineCpu > 0 ? round(us / baselineCpu, 2) : 0);
  const own = input.target?.cpuOf;
  // A paced row lasts operations / rate seconds, so idle ms/s ÷ rate is idle ms per operation.
  const idleUsPerOperation =
    input.idleCpuMsPerSecond && input.rate > 0
      ? (sum(input.idleCpuMsPerSecond) * 1000) / input.rate
      : undefined;
  const row: Omit<Row, 'target_met'> = {
    id: input.id,
    title: input.title,
    rate: input.rate,
    operations: input.measured.operations,
    failures: input.measured.failures ?? 0,
    baseline_failures: input.baseline.failures ?? 0,
    cpu_us_per_op: cpu,
    cpu_us_per_op_by_process: byProcess,
    baseline: input.baselineTitle,
    baseline_cpu_us_per_op: baselineCpu,
    baseline_cpu_us_per_op_by_process: perProcess(input.baseline),
    cpu_ratio: ratio(cpu),
    ...(own ? { own_cpu_ratio: ratio(byProcess[own] ?? 0) } : {}),
    ...(idleUsPerOperation !== undefined
      ? { net_of_idle_cpu_ratio: ratio(Math.max(0, cpu - idleUsPerOperation)) }
      : {}),
    latency: input.measured.latency,
    baseline_latency: input.baseline.latency,
    saturation_per_s: input.saturation?.perSecond,
    baseline_saturation_per_s: input.saturation?.baselinePerSecond,
    target: input.target,
    note: input.note,
  };
  return { ...row, ...(input.target ? { target_met: meets(row, input.target) } : {}) };
}

function describeTarget(target: Target | undefined): string {
  if (!target) return '';
  const parts = [
    target.cpuRatio !== undefined
      ? `${target.cpuOf ? `${target.cpuOf} ` : ''}CPU ≤ ${target.cpuRatio}×`
      : '',
    target.p50Ms !== undefined ? `p50 < ${target.p50Ms}` : '',
    target.p95Ms !== undefined ? `p95 < ${target.p95Ms}` : '',
    target.p99Ms !== undefined ? `p99 < ${target.p99Ms}` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

const latencyCell = (latency: Latency | undefined) =>
  latency ? `${latency.p50_ms} / ${latency.p95_ms} / ${latency.p99_ms}` : '–';

const topProcesses = (byProcess: Record<string, number>, count = 4) =>
  Object.entries(byProcess)
    .slice(0, count)
    .map(([name, us]) => `${name} ${us}`)
    .join(', ');

/** The table as Markdown (also what the terminal shows). */
export function markdownTable(rows: Row[]): string {
  const header = [
    'row',
    'rate/s',
    'ops',
    'CPU µs/op (all processes)',
    'baseline µs/op',
    'CPU ratio',
    'p50/p95/p99 ms',
    'baseline p50/p95/p99 ms',
    'saturation/s (baseline)',
    'top processes, µs/op',
    'target',
  ];
  const lines = rows.map((row) => [
    `${row.title} (\`${row.id}\`)`,
    row.rate ? String(row.rate) : '–',
    row.failures ? `${row.operations} (${row.failures} failed)` : String(row.operations),
    String(row.cpu_us_per_op),
    `${row.baseline_cpu_us_per_op} (${row.baseline}${Object.keys(row.baseline_cpu_us_per_op_by_process).length > 1 ? `: ${topProcesses(row.baseline_cpu_us_per_op_by_process, 3)}` : ''}${row.baseline_failures ? `; ${row.baseline_failures} failed` : ''})`,
    [
      `**${row.cpu_ratio}**`,
      row.own_cpu_ratio !== undefined ? ` (${row.target?.cpuOf} ${row.own_cpu_ratio})` : '',
      row.net_of_idle_cpu_ratio !== undefined ? ` (net of idle ${row.net_of_idle_cpu_ratio})` : '',
    ].join(''),
    latencyCell(row.latency),
    latencyCell(row.baseline_latency),
    row.saturation_per_s !== undefined
      ? `${row.saturation_per_s} (${row.baseline_saturation_per_s})`
      : '–',
    topProcesses(row.cpu_us_per_op_by_process),
    row.target
      ? `${describeTarget(row.target)}: ${row.target_met ? 'met' : '**not met**'}`
      : 'context',
  ]);
  return [header, header.map(() => '---'), ...lines]
    .map((cells) => `| ${cells.join(' | ')} |`)
    .join('\n');
}
