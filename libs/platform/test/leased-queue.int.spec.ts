import { eventually, startTestInfra, type TestInfra } from '@inventory/local-infra';
import { Schema, type Connection } from 'mongoose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  connectMongo,
  createLogger,
  LeasedQueue,
  NO_LEASE,
  WorkerLoop,
  type ClaimRequest,
  type Holder,
} from '../src/index.js';

interface Job {
  id: number;
  tenant_id: string;
  state: 'due' | 'done';
  attempts: number;
  result: string | null;
  lease_owner: string | null;
  lease_until: Date;
  lease_token?: string;
}

const schema = new Schema<Job>(
  {
    id: { type: Number, required: true },
    tenant_id: { type: String, required: true },
    state: { type: String, required: true },
    attempts: { type: Number, default: 0 },
    result: { type: String, default: null },
    lease_owner: { type: String, default: null },
    lease_until: { type: Date, required: true },
    lease_token: { type: String },
  },
  { versionKey: false, collection: 'jobs' },
);
schema.index({ id: 1 }, { unique: true });
schema.index({ state: 1, lease_until: 1, id: 1 });

const MINUTE = 60_000;
const logger = createLogger({ service: 'test', level: 'silent' });

/** One replica: its own connection to the database, and its own queue over it. */
interface Replica {
  connection: Connection;
  queue: LeasedQueue<Job>;
}

describe('leased queue: two replicas over one collection', () => {
  let infra: TestInfra;
  let a: Replica;
  let b: Replica;

  async function replica(): Promise<Replica> {
    const connection = await connectMongo(infra.mongoUrl, infra.dbName('leased-queue'));
    const model = connection.model<Job>('Job', schema);
    await model.init();
    return {
      connection,
      queue: new LeasedQueue(model, {
        key: 'id',
        countsAttempt: 'attempts',
        held: { state: 'due' },
      }),
    };
  }

  const jobs = () => a.connection.model<Job>('Job');

  async function store(count: number, tenantOf = (_: number) => 'tenant-a'): Promise<number[]> {
    const base = ((await jobs().findOne().sort({ id: -1 }).lean())?.id ?? 0) + 1;
    const ids = Array.from({ length: count }, (_, index) => base + index);
    await jobs().insertMany(
      ids.map((id) => ({
        id,
        tenant_id: tenantOf(id),
        state: 'due',
        lease_owner: null,
        lease_until: NO_LEASE,
      })),
    );
    return ids;
  }

  function claim(owner: string, now: Date, limit = 7): ClaimRequest<Job> {
    return {
      scope: 'acrossTenants',
      due: { state: 'due' },
      order: { lease_until: 1, id: 1 },
      owner,
      leaseMs: MINUTE,
      limit,
      now,
    };
  }

  const holderOf = (job: Job): Holder => ({ owner: job.lease_owner!, token: job.lease_token });

  beforeAll(async () => {
    infra = await startTestInfra({ nats: false, redis: false });
    a = await replica();
    b = await replica();
  });
  beforeEach(async () => {
    await jobs().deleteMany({});
  });
  afterAll(async () => {
    await a?.connection.close();
    await b?.connection.close();
    await infra?.stop();
  });

  it('gives every row to exactly one claim of two replicas claiming concurrently', async () => {
    const ids = await store(120);
    const now = new Date();
    const won = new Map<number, string[]>();
    let lost = 0;
    const drain = async (replica: Replica, owner: string) => {
      for (;;) {
        // A claim's two steps taken apart, to count the candidates another claim took first.
        const request = claim(owner, now);
        const candidates = await replica.queue.dueKeys(request);
        if (candidates.length === 0) return;
        const rows = await replica.queue.lease(candidates, request);
        lost += candidates.length - rows.length;
        for (const row of rows) won.set(row.id, [...(won.get(row.id) ?? []), row.lease_token!]);
      }
    };
    // Several claims in flight on each replica at once, as a worker's refills and a second pass
    // would make them.
    await Promise.all([
      drain(a, 'replica-a'),
      drain(a, 'replica-a'),
      drain(b, 'replica-b'),
      drain(b, 'replica-b'),
    ]);
    // The claims did race (all four read the same oldest rows first), and each row went to one.
    expect(lost).toBeGreaterThan(0);
    expect([...won.keys()].sort((x, y) => x - y)).toEqual(ids);
    expect([...won.values()].every((tokens) => tokens.length === 1)).toBe(true);
    const stored = await jobs().find().lean();
    expect(stored.every((job) => job.attempts === 1)).toBe(true);
  });

  it('claims due rows of every tenant leasing each tenant’s under it, one token for all (ADR 0237)', async () => {
    const ids = await store(6, (id) => (id % 2 === 0 ? 'tenant-even' : 'tenant-odd'));
    const now = new Date();
    const due = await a.queue.dueKeysByTenant(claim('a', now, 4));
    expect(due).toEqual(
      ids
        .slice(0, 4)
        .map((id) => ({ tenantId: id % 2 === 0 ? 'tenant-even' : 'tenant-odd', key: id })),
    );
    // Another claim takes one of them first: this one wins the others.
    await b.queue.lease([ids[1]], claim('b', now));
    const rows = await a.queue.leaseByTenant(due, claim('a', now, 4));
    expect(rows.map((row) => row.id).sort()).toEqual([ids[0], ids[2], ids[3]].sort());
    expect(new Set(rows.map((row) => row.lease_token)).size).toBe(1);
    expect(rows.every((row) => row.lease_owner === 'a' && row.attempts === 1)).toBe(true);
  });

  it('claims the oldest due rows of one tenant only, when scoped to it', async () => {
    await store(10, (id) => (id % 2 === 0 ? 'tenant-a' : 'tenant-b'));
    const rows = await a.queue.claim({
      ...claim('w', new Date(), 3),
      scope: { tenantId: 'tenant-b' },
    });
    expect(rows.map((row) => row.tenant_id)).toEqual(['tenant-b', 'tenant-b', 'tenant-b']);
    expect(rows.map((row) => row.id)).toEqual([1, 3, 5]);
  });

  it("gives a crashed replica's rows to another once their lease expires, and only then", async () => {
    const ids = await store(5);
    const t0 = new Date('2030-01-01T00:00:00Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    // Replica A claims, then dies before finishing anything.
    const crashed = await a.queue.claim(claim('replica-a', t0, 10));
    expect(crashed.map((row) => row.id)).toEqual(ids);

    expect(await b.queue.claim(claim('replica-b', at(MINUTE - 1), 10))).toEqual([]);
    const recovered = await b.queue.claim(claim('replica-b', at(MINUTE), 10));
    expect(recovered.map((row) => row.id)).toEqual(ids);
    expect(recovered.every((row) => row.attempts === 2 && row.lease_owner === 'replica-b')).toBe(
      true,
    );

    // A comes back to life with its old lease: it can neither finish nor release the rows.
    const zombie = crashed.map((row) => ({
      tenantId: row.tenant_id,
      key: row.id,
      holder: holderOf(row),
      set: { state: 'done', result: 'by-a' },
    }));
    expect(await a.queue.finishMany(zombie)).toBe(0);
    expect(await a.queue.release('tenant-a', ids, holderOf(crashed[0]!))).toBe(0);

    // B, which holds them, finishes them.
    const finishes = recovered.map((row) => ({
      tenantId: row.tenant_id,
      key: row.id,
      holder: holderOf(row),
      set: { state: 'done', result: 'by-b' },
    }));
    expect(await b.queue.finishMany(finishes)).toBe(ids.length);
    const stored = await jobs().find().sort({ id: 1 }).lean();
    expect(stored.map((job) => [job.state, job.result, job.lease_owner])).toEqual(
      ids.map(() => ['done', 'by-b', null]),
    );
    expect(await b.queue.claim(claim('replica-b', at(10 * MINUTE), 10))).toEqual([]);
  });

  it('keys a release by the claim, not only the owner: two claims of one worker stay apart', async () => {
    const ids = await store(6);
    const t0 = new Date('2030-01-01T00:00:00Z');
    const first = await a.queue.claim(claim('replica-a', t0, 3));
    // The first claim's lease expired while its work hung; the same worker claims them again.
    const second = await a.queue.claim(claim('replica-a', new Date(t0.getTime() + MINUTE), 6));
    expect(second.map((row) => row.id)).toEqual(ids);
    // The first claim's late release frees nothing the second holds.
    expect(await a.queue.release('tenant-a', ids.slice(0, 3), holderOf(first[0]!))).toBe(0);
    const retryAt = new Date(t0.getTime() + 5 * MINUTE);
    expect(
      await a.queue.release('tenant-a', ids.slice(0, 3), holderOf(second[0]!), {}, retryAt),
    ).toBe(3);
    const released = await jobs()
      .find({ id: { $in: ids.slice(0, 3) } })
      .lean();
    expect(released.every((job) => job.lease_owner === null)).toBe(true);
    expect(released.every((job) => job.lease_until.getTime() === retryAt.getTime())).toBe(true);
    // Released with a retry time: due again then, not before (the others' lease ran out).
    const justBefore = new Date(retryAt.getTime() - 1);
    const others = await a.queue.claim(claim('replica-b', justBefore, 6));
    expect(others.map((row) => row.id)).toEqual(ids.slice(3));
    const retried = await a.queue.claim(claim('replica-b', retryAt, 6));
    expect(retried.map((row) => row.id)).toEqual(ids.slice(0, 3));
  });

  it('walks on in key order from `after`, and takes a row stored with a null lease as free', async () => {
    const ids = await store(6);
    // A row stored before the convention: its empty lease is null.
    await jobs().collection.updateOne({ id: ids[0] }, { $set: { lease_until: null } });
    const legacy = new LeasedQueue(jobs(), { key: 'id', nullLeaseIsEmpty: true });
    const request = { ...claim('w', new Date(), 2), order: { id: 1 as const } };
    expect((await legacy.claim(request)).map((row) => row.id)).toEqual(ids.slice(0, 2));
    const walked = await legacy.claim({ ...request, after: ids[3] });
    expect(walked.map((row) => row.id)).toEqual(ids.slice(4, 6));
  });

  it('claims from several due filters in turn under one token, past rows another replica won, and releases rows of several claims', async () => {
    const ids = await store(10);
    const now = new Date();
    // Replica B holds two of the rows the first filter would take first.
    await b.queue.lease(ids.slice(1, 3), claim('replica-b', now));
    const dues = [
      { due: { state: 'due', id: { $lte: ids[4]! } }, order: { id: 1 as const } },
      { due: { state: 'due', id: { $gt: ids[6]! } }, order: { id: 1 as const } },
    ];
    const { due: _due, order: _order, ...request } = claim('replica-a', now, 5);
    const won = await a.queue.claimInTurn(dues, request);
    // The first filter's three free rows, then the second's first two: one claim, one token.
    expect(won.map((row) => row.id)).toEqual([ids[0], ids[3], ids[4], ids[7], ids[8]]);
    expect(new Set(won.map((row) => row.lease_token)).size).toBe(1);

    // Walking on starts each round after the last candidate, from `after` first.
    const walked = await a.queue.claimInTurn(
      [{ due: { state: 'due' }, order: { id: 1 as const } }],
      { ...request, owner: 'replica-c', after: ids[8] },
      true,
    );
    expect(walked.map((row) => row.id)).toEqual([ids[9]]);

    // One release over the rows of two claims frees each under its own token, and no other's.
    const second = await a.queue.claim({ ...claim('replica-a', now, 2), due: { id: ids[5] } });
    const held = [...won, ...second].map((row) => ({ key: row.id, token: row.lease_token }));
    expect(await a.queue.releaseHeld('tenant-a', 'replica-a', held, { result: 'freed' })).toBe(6);
    expect(await a.queue.releaseHeld('tenant-a', 'replica-b', held)).toBe(0);
    const freed = await jobs().find({ result: 'freed' }).sort({ id: 1 }).lean();
    expect(freed.map((job) => job.id)).toEqual([0, 3, 4, 5, 7, 8].map((index) => ids[index]));
  });

  it('holds a claim beyond the free slots, runs it as slots free, and gives back what it still holds at stop', async () => {
    const ids = await store(12);
    const ran: number[] = [];
    let finishNow!: () => void;
    const blocked = new Promise<void>((resolve) => (finishNow = resolve));
    const worker = new WorkerLoop<Job>({
      logger,
      concurrency: 2,
      pollMs: 5,
      idlePollMs: 20,
      refill: 'always',
      hold: {
        usable: () => true,
        release: async (held) => {
          await a.queue.releaseMany(
            held.map((row) => ({ tenantId: row.tenant_id, key: row.id, holder: holderOf(row) })),
          );
        },
        releaseFailed: 'not released',
      },
      claimFailed: 'claim failed',
      runFailed: 'run failed',
      describe: (job) => ({ id: job.id }),
      claim: (limit) => a.queue.claim(claim('holder', new Date(), limit)),
      start: (rows) =>
        rows.map(async (row) => {
          ran.push(row.id);
          await blocked;
        }),
    });
    worker.start();
    // Two slots, and as many again held: four rows leased by one claim, two of them running.
    await eventually(async () =>
      expect(await jobs().countDocuments({ lease_owner: 'holder' })).toBe(4),
    );
    expect(ran).toEqual(ids.slice(0, 2));
    const stopping = worker.stop();
    finishNow();
    await stopping;
    // The held two were never run: their leases are back, and any replica takes them now.
    expect(await jobs().countDocuments({ lease_owner: 'holder' })).toBe(2);
    const again = await b.queue.claim(claim('replica-b', new Date(), 2));
    expect(again.map((row) => row.id)).toEqual(ids.slice(2, 4));
  });

  it('runs every row exactly once with a worker loop on each of two replicas', async () => {
    const ids = await store(60);
    const runs = new Map<number, number>();
    const loop = (replica: Replica, owner: string) =>
      new WorkerLoop<Job>({
        logger,
        concurrency: 4,
        pollMs: 5,
        idlePollMs: 20,
        refill: 'always',
        claimFailed: 'claim failed',
        runFailed: 'run failed',
        describe: (job) => ({ id: job.id }),
        claim: (room) => replica.queue.claim(claim(owner, new Date(), room)),
        start: (rows) =>
          rows.map(async (row) => {
            runs.set(row.id, (runs.get(row.id) ?? 0) + 1);
            await replica.queue.finishMany([
              {
                tenantId: row.tenant_id,
                key: row.id,
                holder: holderOf(row),
                set: { state: 'done', result: owner },
              },
            ]);
          }),
      });
    const loops = [loop(a, 'replica-a'), loop(b, 'replica-b')];
    for (const worker of loops) worker.start();
    try {
      await eventually(async () =>
        expect(await jobs().countDocuments({ state: 'done' })).toBe(ids.length),
      );
    } finally {
      await Promise.all(loops.map((worker) => worker.stop()));
    }
    expect([...runs.keys()].sort((x, y) => x - y)).toEqual(ids);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });
});
