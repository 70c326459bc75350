import { readdirSync, readFileSync } from 'node:fs';

/** Linux /proc readings of the processes a benchmark started: CPU time and resident memory. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  cmdline: string;
}

function read(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
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

/** User + system CPU time of a process so far, in milliseconds. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command); clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
