import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

function stat(pid: number): { ppid: number; cpuMs: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const [utime, stime] = [Number(fields[11]), Number(fields[12])];
    return { ppid: Number(fields[1]), cpuMs: ((utime + stime) * 1000) / TICKS_PER_SECOND };
  } catch {
    return undefined;
  }
}

/** CPU milliseconds (user + system) of `root` and every process below it, from /proc. */
export function treeCpuMs(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const info = stat(pid);
    if (info) children.set(info.ppid, [...(children.get(info.ppid) ?? []), pid]);
  }
  let total = 0;
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    total += stat(pid)?.cpuMs ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}
