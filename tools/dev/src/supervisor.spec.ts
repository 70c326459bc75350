import { PassThrough } from 'node:stream';
import { waitFor } from '@inventory/local-infra';
import { afterEach, describe, expect, it } from 'vitest';
import { Supervisor, type ProcessSpec, type RestartPolicy } from './supervisor.js';

/** Small real child processes: a long-lived one, and one that dies right after it is ready. */
const longLived = (name: string): ProcessSpec => ({
  name,
  command: process.execPath,
  args: ['-e', `console.log('ready ' + process.pid); setInterval(() => {}, 1000);`],
  readyPattern: /^ready \d+/,
});
const diesAfterReady = (name: string): ProcessSpec => ({
  name,
  command: process.execPath,
  args: ['-e', `console.log('ready ' + process.pid); setTimeout(() => process.exit(3), 20);`],
  readyPattern: /^ready \d+/,
});

const until = (check: () => boolean, what: string, capMs = 20_000) =>
  waitFor(check, { what, timeoutMs: capMs, everyMs: 20 });

const fastPolicy: Partial<RestartPolicy> = {
  initialBackoffMs: 10,
  maxBackoffMs: 40,
  crashLoopLimit: 5,
  crashWindowMs: 60_000,
  stableAfterMs: 60_000,
};

function harness(policy: Partial<RestartPolicy> = fastPolicy) {
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const crashLoops: string[] = [];
  const supervisor = new Supervisor(output, {
    restartPolicy: policy,
    onCrashLoop: (name) => crashLoops.push(name),
  });
  return { supervisor, crashLoops, log: () => text };
}

describe('Supervisor', () => {
  let current: Supervisor | undefined;
  afterEach(async () => {
    await current?.stopAll(2_000);
    current = undefined;
  });

  it('restarts a process that dies, logs it, and leaves the others running', async () => {
    const { supervisor, log } = harness();
    current = supervisor;
    await supervisor.start(longLived('steady'));
    await supervisor.start(longLived('victim'));
    const steadyPid = supervisor.pidOf('steady');
    const victimPid = supervisor.pidOf('victim')!;

    process.kill(victimPid, 'SIGKILL');
    await until(
      () => supervisor.restartsOf('victim') === 1 && /victim restarted/.test(log()),
      'the restart',
    );

    const newPid = supervisor.pidOf('victim')!;
    expect(newPid).not.toBe(victimPid);
    expect(() => process.kill(newPid, 0)).not.toThrow();
    expect(log()).toMatch(/victim exited unexpectedly \(signal SIGKILL\); restarting in 10 ms/);
    expect(log()).toContain(`ready ${newPid}`);
    // The other part was never touched.
    expect(supervisor.pidOf('steady')).toBe(steadyPid);
    expect(() => process.kill(steadyPid!, 0)).not.toThrow();
  });

  it('backs off exponentially, then reports a crash loop and stops restarting', async () => {
    const { supervisor, crashLoops, log } = harness();
    current = supervisor;
    await supervisor.start(diesAfterReady('flaky'));
    await until(() => crashLoops.length === 1, 'the crash loop');

    expect(crashLoops).toEqual(['flaky']);
    const delays = [
      ...log().matchAll(/flaky exited unexpectedly \(code 3\); restarting in (\d+) ms/g),
    ].map((match) => Number(match[1]));
    expect(delays).toEqual([10, 20, 40, 40]);
    expect(log()).toMatch(/flaky exited \(code 3\) 5 times within 60000 ms: crash loop, giving up/);
    // Giving up schedules nothing more: four restarts were made, the fifth crash ended it.
    expect(supervisor.restartsOf('flaky')).toBe(4);
  });

  it('a process that ran long enough starts its back-off over', async () => {
    const { supervisor, log } = harness({ ...fastPolicy, stableAfterMs: 0 });
    current = supervisor;
    await supervisor.start(longLived('stable'));
    for (let round = 1; round <= 3; round++) {
      process.kill(supervisor.pidOf('stable')!, 'SIGKILL');
      await until(() => supervisor.restartsOf('stable') === round, `restart ${round}`);
    }
    const delays = [...log().matchAll(/stable exited unexpectedly .*restarting in (\d+) ms/g)].map(
      (match) => Number(match[1]),
    );
    expect(delays).toEqual([10, 10, 10]);
  });

  it('stopAll stops every part and cancels a pending restart', async () => {
    const { supervisor, log } = harness({ ...fastPolicy, initialBackoffMs: 60_000 });
    current = supervisor;
    await supervisor.start(longLived('a'));
    await supervisor.start(longLived('b'));
    const a = supervisor.pidOf('a')!;
    const b = supervisor.pidOf('b')!;
    process.kill(a, 'SIGKILL');
    await until(() => /a exited unexpectedly/.test(log()), 'the crash to be noticed');
    await supervisor.stopAll(2_000);
    current = undefined;
    expect(() => process.kill(b, 0)).toThrow();
    expect(supervisor.restartsOf('a')).toBe(0);
    expect(supervisor.pidOf('a')).toBe(a);
  });

  it('a part that fails before it is ready at start-up rejects, for the launcher to stop', async () => {
    const { supervisor } = harness();
    current = supervisor;
    await expect(
      supervisor.start({
        name: 'broken',
        command: process.execPath,
        args: ['-e', 'process.exit(2)'],
        readyPattern: /never/,
      }),
    ).rejects.toThrow(/broken exited with 2 before it was ready/);
  });
});
