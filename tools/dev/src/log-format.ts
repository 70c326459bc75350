const COLORS = [36, 33, 35, 32, 34, 91, 92, 93, 94, 95, 96];
const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
const OMIT = new Set(['level', 'time', 'pid', 'hostname', 'name', 'service', 'msg', 'v']);

export function colorFor(index: number): number {
  return COLORS[index % COLORS.length]!;
}

/**
 * One readable line per log line: `[name] 12:00:01 INFO message key=value`; pino JSON is unpacked.
 * test-e2e's `errorLines` reads this format from a launched system's output.
 */
export function formatLine(name: string, color: number, line: string, useColor: boolean): string {
  const prefix = useColor ? `\x1b[${color}m[${name}]\x1b[0m` : `[${name}]`;
  if (!line.startsWith('{')) return `${prefix} ${line}`;
  try {
    const record = JSON.parse(line) as Record<string, unknown>;
    const time = typeof record.time === 'string' ? record.time.slice(11, 19) : '';
    const level = LEVELS[Number(record.level)] ?? String(record.level ?? '');
    const extras = Object.entries(record)
      .filter(([key]) => !OMIT.has(key))
      .map(
        ([key, value]) =>
          `${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
      )
      .join(' ');
    return `${prefix} ${time} ${level.padEnd(5)} ${String(record.msg ?? '')}${extras ? ` ${extras}` : ''}`;
  } catch {
    return `${prefix} ${line}`;
  }
}
