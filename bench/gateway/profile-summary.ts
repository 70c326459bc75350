/** The parts of a V8 `.cpuprofile` that a summary needs. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*node_modules\//, '')
    .replace(/^.*?\/(gateway|libs|services)\//, '$1/');

/**
 * The heaviest functions by self time, and by total time (self plus callees, each function
 * counted once per stack), as shares of the profile's samples.
 */
export function summariseProfile(profile: CpuProfile, top: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (id: number) => {
    const frame = byId.get(id)!.callFrame;
    return `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let samples = 0;
  for (const sample of profile.samples) {
    const name = label(sample);
    // Idle time is the load's pacing, not cost: shares are of the busy samples.
    if (name.startsWith('(idle)')) continue;
    samples++;
    self.set(name, (self.get(name) ?? 0) + 1);
    const seen = new Set<string>();
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const frame = label(id);
      if (seen.has(frame)) continue;
      seen.add(frame);
      total.set(frame, (total.get(frame) ?? 0) + 1);
    }
  }
  const list = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => `${((100 * count) / samples).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  return `${samples} busy samples of ${profile.samples.length}\n\nself:\n${list(self)}\n\ntotal:\n${list(total)}`;
}
