import { readdirSync, readFileSync } from 'node:fs';

/** Linux /proc readings of the processes a benchmark started: CPU time, resident memory, names. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  cmdline: string;
}

const TICK_MS = 10; // utime/stime are in clock ticks: 100 per second on Linux.

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function read(pid: number): ProcessInfo | undefined {
  const fields = statFields(pid);
  if (!fields) return undefined;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    return { pid, ppid: Number(fields[1]), cmdline };
  } catch {
    return undefined;
  }
}

/** Every process below `root` (children, grandchildren...). */
export function descendants(root: number): ProcessInfo[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => read(Number(name)))
    .filter((info): info is ProcessInfo => info !== undefined);
  const out: ProcessInfo[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const info of all.filter((candidate) => candidate.ppid === parent)) {
      out.push(info);
      frontier.push(info.pid);
    }
  }
  return out;
}

/** User + system CPU time of a process so far, in milliseconds (0 once it is gone). */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command).
  return fields ? (Number(fields[11]) + Number(fields[12])) * TICK_MS : 0;
}

/** CPU milliseconds of `root` and every process below it. */
export function treeCpuMs(root: number): number {
  return [root, ...descendants(root).map((info) => info.pid)].reduce(
    (sum, pid) => sum + cpuMs(pid),
    0,
  );
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
