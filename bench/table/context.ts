import type { OpenLoopOptions } from '../lib/paced.js';
import type { RunningSystem } from '../lib/system.js';
import type { Measured } from './report.js';

/** What every row of the table is measured with, in one run. */
export interface BenchContext {
  quick: boolean;
  /** Whether row `id` was asked for (`--only`). */
  wants(id: string): boolean;
  system: RunningSystem;
  /** Headers of an authenticated request on the development tenant's host. */
  auth: Record<string, string>;
  /** The bare Fastify hello-world at the same paced rate and count (cached per shape). */
  bare(
    options: Pick<OpenLoopOptions, 'ratePerSecond' | 'total' | 'build'>,
    post?: boolean,
    /** Measure again rather than reuse the run's earlier measurement of this shape. */
    fresh?: boolean,
  ): Promise<Measured>;
  bareSaturation(): Promise<number>;
  /**
   * Paced load on `url` until its CPU per request is steady (`warmUntilSteady`), once per url,
   * method and rate in a run: every measured side, the bare server included, starts from there.
   */
  warm(
    processes: Record<string, number>,
    options: Pick<OpenLoopOptions, 'url' | 'headers' | 'ratePerSecond' | 'build'>,
    post?: boolean,
  ): Promise<void>;
  saturationSeconds: number;
  /**
   * How many times the gateway rows alternate their baseline and their measurement (`--repeat`):
   * on a loaded machine the two drift apart between minutes, so alternating pairs and pooling
   * them keeps the ratio about the code rather than about when each side ran.
   */
  repeat: number;
  /** Progress on stderr; the table goes to stdout. */
  log(message: string): void;
}

/** Scaled for `--quick`: a smaller count, never below a floor that keeps the CPU figure readable. */
export const count = (context: Pick<BenchContext, 'quick'>, full: number, quick: number) =>
  context.quick ? quick : full;
