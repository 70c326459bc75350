import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { BootstrapOptions } from '../src/bootstrap.js';
import {
  deliveriesOf,
  settledDeliveries,
  startHarness,
  subscribe,
  succeededDeliveries,
  updateSubscription,
  type Harness,
} from './harness.js';
import { startReceiver, type Receiver, type Responder } from './receiver.js';

/** What a test file's system differs in; everything left out is the harness's default. */
export interface SuiteOptions {
  /** Variables over the harness's fast test settings. */
  env?: NodeJS.ProcessEnv;
  /** A pinned clock, a DNS table, … */
  bootstrap?: BootstrapOptions;
  /** How the receiver answers from the start (default: 200 `ok`). */
  respond?: Responder;
  /** `false`: the service alone, for tests that send nothing. */
  receiver?: boolean;
  /** Before each test, the receiver forgets what it got and answers as at the start again. */
  resetReceiver?: boolean;
  /** A fresh system for each test (tests that stop or kill the service), not one for the file. */
  perTest?: boolean;
}

interface Parts {
  h: Harness;
  receiver?: Receiver;
}

/** One outbound-delivery with its infrastructure, and a local receiver; the helpers tests share. */
export class ReceiverSuite {
  constructor(private readonly parts: () => Parts) {}

  get h(): Harness {
    return this.parts().h;
  }

  get receiver(): Receiver {
    const { receiver } = this.parts();
    if (!receiver) throw new Error('this suite was started with { receiver: false }');
    return receiver;
  }

  /** Subscribes `tenant` to `events` at `path` on the receiver (e.g. `/hook?token=x`). */
  subscribe(tenant: string, path: string, events?: string[]) {
    return subscribe(this.h, tenant, `${this.receiver.url}${path}`, events);
  }

  /** Updates a subscription as `tenant`, changing only what `changes` names. */
  update(tenant: string, id: number, changes: Parameters<typeof updateSubscription>[3]) {
    return updateSubscription(this.h, tenant, id, changes);
  }

  deliveriesOf(
    tenant: string,
    subscriptionId: number,
    filter?: { status?: string; event?: string },
  ) {
    return deliveriesOf(this.h, tenant, subscriptionId, filter);
  }

  /** Waits until the subscription has `count` deliveries, none pending; newest first. */
  settled(tenant: string, subscriptionId: number, count: number) {
    return settledDeliveries(this.h, tenant, subscriptionId, count);
  }

  /** Waits until the subscription has exactly `count` succeeded deliveries; newest first. */
  succeeded(tenant: string, subscriptionId: number, count: number) {
    return succeededDeliveries(this.h, tenant, subscriptionId, count);
  }

  /** The requests received at exactly `path`, in arrival order. */
  requestsTo(path: string) {
    return this.receiver.requests.filter((request) => request.path === path);
  }

  /** The JSON bodies received at exactly `path`, in arrival order. */
  bodiesTo<T = { event: string; data: Record<string, unknown> }>(path: string): T[] {
    return this.requestsTo(path).map((request) => JSON.parse(request.body) as T);
  }
}

async function startParts(options: SuiteOptions): Promise<Parts> {
  const h = await startHarness(options.env, options.bootstrap);
  if (options.receiver === false) return { h };
  try {
    return { h, receiver: await startReceiver(options.respond) };
  } catch (error) {
    await h.stop();
    throw error;
  }
}

async function stopParts(parts: Parts | undefined) {
  await parts?.receiver?.stop();
  await parts?.h.stop();
}

/**
 * Starts the system before the describe block's tests (or before each, `perTest`) and stops it
 * after them. Read `h` and `receiver` inside hooks and tests only: they exist once started.
 */
export function useReceiverSuite(options: SuiteOptions = {}): ReceiverSuite {
  let parts: Parts | undefined;
  const [before, after] = options.perTest ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    parts = await startParts(options);
  });
  after(async () => {
    await stopParts(parts);
    parts = undefined;
  });
  if (options.resetReceiver) beforeEach(() => parts?.receiver?.reset());
  return new ReceiverSuite(() => {
    if (!parts) throw new Error('the receiver suite is read outside its tests');
    return parts;
  });
}

/** A system of its own for one test, stopped when `run` ends (for a test with its own settings). */
export async function withReceiverSuite<T>(
  options: SuiteOptions,
  run: (suite: ReceiverSuite) => Promise<T>,
): Promise<T> {
  const parts = await startParts(options);
  try {
    return await run(new ReceiverSuite(() => parts));
  } finally {
    await stopParts(parts);
  }
}
