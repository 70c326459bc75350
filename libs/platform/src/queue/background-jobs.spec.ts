import { describe, expect, it } from 'vitest';
import type { Logger } from '../logging/index.js';
import { BackgroundJobs, type JobControl } from './background-jobs.js';

interface Job {
  id: string;
}

/** A logger that records its error lines. */
function recordingLogger() {
  const errors: Array<Record<string, unknown>> = [];
  const logger = {
    error: (fields: Record<string, unknown>) => errors.push(fields),
    warn: () => undefined,
    info: () => undefined,
  } as unknown as Logger;
  return { logger, errors };
}

/** A promise with its resolver, to let a test say when a run may go on. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { open, opened };
}

/** Lets every promise reaction already queued run (no timer: the microtask queue drains). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('BackgroundJobs', () => {
  it('carries on the pending jobs at start, and never runs one job twice at once', async () => {
    const { logger } = recordingLogger();
    const started: string[] = [];
    const finish = gate();
    const jobs = new BackgroundJobs<Job>({
      logger,
      pending: async () => [{ id: 'a' }, { id: 'b' }],
      execute: async (job) => {
        started.push(job.id);
        await finish.opened;
      },
      keyOf: (job) => job.id,
      runFailed: 'failed',
    });
    await jobs.start();
    jobs.run({ id: 'a' });
    jobs.run({ id: 'c' });
    expect(started).toEqual(['a', 'b', 'c']);
    finish.open();
    await jobs.stop();
  });

  it('stop ends a pause at once, tells the run, and waits for it to return', async () => {
    const { logger } = recordingLogger();
    const seen: boolean[] = [];
    const paused = gate();
    const jobs = new BackgroundJobs<Job>({
      logger,
      pending: async () => [],
      execute: async (_job, control: JobControl) => {
        const pause = control.pause(3_600_000);
        paused.open();
        await pause;
        seen.push(control.stopped);
      },
      keyOf: (job) => job.id,
      runFailed: 'failed',
    });
    await jobs.start();
    jobs.run({ id: 'a' });
    await paused.opened;
    await jobs.stop();
    expect(seen).toEqual([true]);
    // A stopped runner starts nothing.
    jobs.run({ id: 'b' });
    await settled();
    expect(seen).toEqual([true]);
  });

  it('logs a run that throws and lets the job run again', async () => {
    const { logger, errors } = recordingLogger();
    let runs = 0;
    const jobs = new BackgroundJobs<Job>({
      logger,
      pending: async () => [],
      execute: async () => {
        runs += 1;
        throw new Error('step failed');
      },
      keyOf: (job) => job.id,
      runFailed: 'job failed',
    });
    await jobs.start();
    jobs.run({ id: 'a' });
    await settled();
    expect(errors).toEqual([expect.objectContaining({ job_id: 'a' })]);
    jobs.run({ id: 'a' });
    await settled();
    expect(runs).toBe(2);
    await jobs.stop();
  });

  it('with a poll, takes the jobs that become pending later, up to its room', async () => {
    const { logger } = recordingLogger();
    const later = gate<string>();
    let offered = false;
    const rooms: number[] = [];
    const jobs = new BackgroundJobs<Job>({
      logger,
      pending: async (room) => {
        rooms.push(room);
        if (offered) return [];
        offered = rooms.length > 1;
        return offered ? [{ id: 'late' }] : [];
      },
      execute: async (job) => later.open(job.id),
      keyOf: (job) => job.id,
      pollMs: 1,
      maxRunning: 3,
      runFailed: 'failed',
    });
    await jobs.start();
    jobs.kick();
    expect(await later.opened).toBe('late');
    expect(rooms.every((room) => room <= 3)).toBe(true);
    await jobs.stop();
  });
});
