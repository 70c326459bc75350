import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { Schema, type Connection, type PipelineStage, type UpdateQuery } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMongo,
  TenantScopedRepository,
  type InsertManyOptions,
  type ScopedFilter,
} from '../src/index.js';

interface Note {
  tenant_id: string;
  id: number;
  text: string;
  /** Left to the schema's default by `insertWithDefaults`. */
  tag?: string;
}

const schema = new Schema<Note>(
  {
    tenant_id: { type: String, required: true },
    id: Number,
    text: String,
    tag: { type: String, default: 'untagged' },
  },
  { versionKey: false, collection: 'notes' },
);

/** Exposes the protected queries so the test can hand them hostile filters. */
class NoteRepository extends TenantScopedRepository<Note> {
  constructor(connection: Connection) {
    super(connection.model<Note>('Note', schema));
  }
  add(note: Note) {
    return this.insertOne(note);
  }
  list(tenantId: string, filter: ScopedFilter<Note>) {
    return this.findMany(tenantId, filter, { sort: { id: 1 } });
  }
  rename(tenantId: string, filter: ScopedFilter<Note>, text: string) {
    return this.updateOne(tenantId, filter, { $set: { text } });
  }
  remove(tenantId: string, filter: ScopedFilter<Note>) {
    return this.deleteMany(tenantId, filter);
  }
  total(tenantId: string, filter: ScopedFilter<Note>) {
    return this.count(tenantId, filter);
  }
  has(tenantId: string, filter: ScopedFilter<Note>) {
    return this.exists(tenantId, filter);
  }
  renameAll(tenantId: string, filter: ScopedFilter<Note>, text: string) {
    return this.updateMany(tenantId, filter, { $set: { text } });
  }
  /** Writes `text` on the first match by id, or (upsert) a new note of the tenant. */
  put(tenantId: string, filter: ScopedFilter<Note>, update: UpdateQuery<Note>, upsert = false) {
    return this.findOneAndUpdate(tenantId, filter, update, { upsert, sort: { id: 1 } });
  }
  upsert(tenantId: string, filter: ScopedFilter<Note>, update: UpdateQuery<Note>) {
    return this.upsertOne(tenantId, filter, update);
  }
  onePage(tenantId: string, filter: ScopedFilter<Note>, page: number) {
    return this.page(tenantId, filter, {
      sort: { id: 1 },
      page,
      perPage: 1,
      projection: { _id: 0, id: 1 },
    });
  }
  addAll(tenantId: string, rows: Array<Note & { _id?: string }>, options?: InsertManyOptions) {
    return this.insertMany(tenantId, rows, options);
  }
  addWithDefaults(note: Omit<Note, 'tag'>) {
    return this.insertWithDefaults(note);
  }
  idsAcrossTenants() {
    return this.acrossTenants().find({}, { _id: 0, id: 1 }).sort({ id: 1 }).lean<Note[]>();
  }
  countAcrossTenantsByDriver() {
    return this.driverCollection().countDocuments({});
  }
  /** Texts grouped by tenant, after the caller's stages. */
  byTenant(tenantId: string, filter: ScopedFilter<Note>, pipeline: PipelineStage[] = []) {
    return this.aggregate<{ _id: string; texts: string[] }>(tenantId, filter, [
      ...pipeline,
      { $sort: { id: 1 } },
      { $group: { _id: '$tenant_id', texts: { $push: '$text' } } },
    ]);
  }
}

/** A filter that slipped past the types (built from input, or cast). */
const hostile = (filter: Record<string, unknown>) => filter as ScopedFilter<Note>;

describe('TenantScopedRepository', () => {
  let infra: TestInfra;
  let connection: Connection;
  let notes: NoteRepository;

  beforeAll(async () => {
    infra = await startTestInfra({ nats: false, redis: false });
    connection = await connectMongo(infra.mongoUrl, infra.dbName('tenant_repository'));
    notes = new NoteRepository(connection);
    await notes.add({ tenant_id: 'a', id: 1, text: 'a1' });
    await notes.add({ tenant_id: 'a', id: 2, text: 'a2' });
    await notes.add({ tenant_id: 'b', id: 3, text: 'b3' });
  });

  afterAll(async () => {
    await connection?.close();
    await infra?.stop();
  });

  it('reads only the given tenant, whatever tenant the filter names', async () => {
    expect((await notes.list('a', {})).map((note) => note.id)).toEqual([1, 2]);
    expect(await notes.list('a', hostile({ tenant_id: 'b' }))).toEqual([
      expect.objectContaining({ id: 1 }),
      expect.objectContaining({ id: 2 }),
    ]);
    expect(await notes.list('a', hostile({ $or: [{ tenant_id: 'b' }, { id: 3 }] }))).toEqual([]);
    expect(await notes.total('a', hostile({ tenant_id: { $ne: 'a' } }))).toBe(2);
  });

  it('never writes or deletes another tenant’s rows through a filter that names it', async () => {
    // Tenants of its own: this test deletes rows.
    await notes.add({ tenant_id: 'p', id: 30, text: 'p30' });
    await notes.add({ tenant_id: 'p', id: 31, text: 'p31' });
    await notes.add({ tenant_id: 'q', id: 32, text: 'q32' });
    expect(await notes.rename('p', hostile({ tenant_id: 'q', id: 32 }), 'taken')).toEqual({
      matched: 0,
      modified: 0,
    });
    expect(await notes.remove('p', hostile({ tenant_id: 'q' }))).toBe(2);
    expect((await notes.list('q', {})).map((note) => note.text)).toEqual(['q32']);
  });

  it('keeps the tenant in every helper: exists, updateMany, findOneAndUpdate, aggregate and upserts', async () => {
    await notes.add({ tenant_id: 'c', id: 10, text: 'c10' });
    await notes.add({ tenant_id: 'c', id: 11, text: 'c11' });
    await notes.add({ tenant_id: 'd', id: 12, text: 'd12' });
    expect(await notes.has('c', hostile({ tenant_id: 'd', id: 12 }))).toBe(false);
    expect(await notes.has('c', { id: 10 })).toBe(true);

    expect(
      await notes.renameAll('c', hostile({ $or: [{ tenant_id: 'd' }, { id: 12 }] }), 'x'),
    ).toEqual({
      matched: 0,
      modified: 0,
    });
    expect(
      await notes.put('c', hostile({ tenant_id: 'd' }), { $set: { text: 'first' } }),
    ).toMatchObject({
      tenant_id: 'c',
      id: 10,
      text: 'first',
    });

    // An upsert for no match inserts for the given tenant, never the one the filter names.
    expect(
      await notes.upsert('c', hostile({ tenant_id: 'd', id: 13 }), { $set: { text: 'c13' } }),
    ).toEqual({
      matched: 0,
      modified: 0,
      upserted: 1,
    });
    expect(
      await notes.put('c', hostile({ tenant_id: 'd', id: 14 }), { $set: { text: 'c14' } }, true),
    ).toMatchObject({
      tenant_id: 'c',
      id: 14,
    });
    expect((await notes.list('d', {})).map((note) => note.text)).toEqual(['d12']);

    // The tenant's $match runs before the caller's stages, so a later $match cannot widen it.
    expect(
      await notes.byTenant('c', hostile({ tenant_id: 'd' }), [{ $match: { tenant_id: 'd' } }]),
    ).toEqual([]);
    expect(await notes.byTenant('c', {})).toEqual([
      { _id: 'c', texts: ['first', 'c11', 'c13', 'c14'] },
    ]);
  });

  it('refuses an update that writes the tenant, so a row never moves to another tenant', async () => {
    await notes.add({ tenant_id: 'e', id: 20, text: 'e20' });
    const move = { $set: { tenant_id: 'f' } } as UpdateQuery<Note>;
    await expect(notes.put('e', { id: 20 }, move)).rejects.toThrow('may not set tenant_id');
    await expect(notes.renameAll('e', {}, 'x')).resolves.toEqual({ matched: 1, modified: 1 });
    await expect(
      notes.upsert('e', { id: 21 }, { $setOnInsert: { tenant_id: 'f' } } as UpdateQuery<Note>),
    ).rejects.toThrow('may not set tenant_id');
    expect(await notes.list('f', {})).toEqual([]);
  });

  it('pages only the tenant with the projection, whatever tenant the filter names', async () => {
    await notes.add({ tenant_id: 'g', id: 30, text: 'g30' });
    await notes.add({ tenant_id: 'g', id: 31, text: 'g31' });
    await notes.add({ tenant_id: 'h', id: 32, text: 'h32' });
    expect(await notes.onePage('g', hostile({ tenant_id: 'h' }), 2)).toEqual({
      rows: [{ id: 31 }],
      total: 2,
    });
    expect(await notes.onePage('g', hostile({ $or: [{ tenant_id: 'h' }] }), 1)).toEqual({
      rows: [],
      total: 0,
    });
  });

  it('inserts with the schema defaults and answers the stored row, with its own tenant', async () => {
    expect(await notes.addWithDefaults({ tenant_id: 'i', id: 40, text: 'i40' })).toMatchObject({
      tenant_id: 'i',
      id: 40,
      tag: 'untagged',
    });
    expect(await notes.list('i', {})).toEqual([
      expect.objectContaining({ id: 40, tag: 'untagged' }),
    ]);
    // @ts-expect-error: a stored row must carry its tenant
    await expect(notes.addWithDefaults({ id: 41, text: 'no tenant' })).rejects.toThrow(/tenant_id/);
  });

  it('inserts a batch only when every row names the given tenant', async () => {
    await notes.addAll('m', [
      { tenant_id: 'm', id: 60, text: 'm60' },
      { tenant_id: 'm', id: 61, text: 'm61' },
    ]);
    expect((await notes.list('m', {})).map((note) => note.text)).toEqual(['m60', 'm61']);

    // A row of another tenant refuses the whole batch, the rows before it included.
    await expect(
      notes.addAll('m', [
        { tenant_id: 'm', id: 62, text: 'm62' },
        { tenant_id: 'n', id: 63, text: 'n63' },
      ]),
    ).rejects.toThrow('belongs to the given tenant');
    await expect(notes.addAll('', [{ tenant_id: '', id: 64, text: 'no tenant' }])).rejects.toThrow(
      'tenant id is required',
    );
    await expect(
      // @ts-expect-error: a stored row must carry its tenant
      notes.addAll('m', [{ id: 65, text: 'no tenant' }]),
    ).rejects.toThrow('belongs to the given tenant');
    expect((await notes.list('m', {})).map((note) => note.id)).toEqual([60, 61]);
    expect(await notes.list('n', {})).toEqual([]);
    await expect(notes.addAll('m', [])).resolves.toBeUndefined();
  });

  it('inserts lean rows as given and skips stored keys when asked, so a redelivered batch adds nothing', async () => {
    const batch = [
      { _id: 'o-70', tenant_id: 'o', id: 70, text: 'o70' },
      { _id: 'o-71', tenant_id: 'o', id: 71, text: 'o71' },
    ];
    const idempotent = { ordered: false, lean: true, skipDuplicates: true };
    await notes.addAll('o', batch, idempotent);
    // The redelivery, with one new row after a duplicate: unordered, the new row is still written.
    await notes.addAll(
      'o',
      [...batch, { _id: 'o-72', tenant_id: 'o', id: 72, text: 'o72' }],
      idempotent,
    );
    const stored = await connection
      .collection('notes')
      .find({ tenant_id: 'o' }, { sort: { id: 1 } })
      .toArray();
    // `lean`: the row's own string `_id` is kept, and the schema's default is not applied.
    expect(stored).toEqual([
      { _id: 'o-70', tenant_id: 'o', id: 70, text: 'o70' },
      { _id: 'o-71', tenant_id: 'o', id: 71, text: 'o71' },
      { _id: 'o-72', tenant_id: 'o', id: 72, text: 'o72' },
    ]);

    // Without `skipDuplicates` a stored key is the caller's error, as is any other failure with it.
    await expect(notes.addAll('o', [batch[0]!], { lean: true })).rejects.toMatchObject({
      code: 11000,
    });
    await expect(
      notes.addAll(
        'o',
        [{ _id: 'o-73', tenant_id: 'o', id: 73, text: { not: 'a string' } } as never],
        {
          skipDuplicates: true,
        },
      ),
    ).rejects.toThrow(/text/);
    // A duplicate beside another failed row (an array is no `_id`) is not skipped.
    await expect(
      notes.addAll(
        'o',
        [batch[0]!, { _id: ['not', 'an', 'id'], tenant_id: 'o', id: 75, text: 'o75' } as never],
        idempotent,
      ),
    ).rejects.toThrow(/_id/);
    // Not lean: mongoose completes the row with the schema's defaults.
    await notes.addAll('o', [{ tenant_id: 'o', id: 74, text: 'o74' }]);
    expect((await notes.list('o', { id: 74 }))[0]).toMatchObject({ tag: 'untagged' });
  });

  it('reaches every tenant only through the named cross-tenant accessors', async () => {
    await notes.add({ tenant_id: 'j', id: 50, text: 'j50' });
    await notes.add({ tenant_id: 'k', id: 51, text: 'k51' });
    const ids = (await notes.idsAcrossTenants()).map((note) => note.id);
    expect(ids).toEqual(expect.arrayContaining([50, 51]));
    expect(await notes.countAcrossTenantsByDriver()).toBe(ids.length);
  });

  it('refuses a query without a tenant at run time too', async () => {
    await expect(notes.list('', {})).rejects.toThrow('tenant id is required');
    await expect(notes.list(undefined as unknown as string, {})).rejects.toThrow(
      'tenant id is required',
    );
  });

  it('demands the tenant in the types (tsc checks the expect-error lines), and at run time', async () => {
    // @ts-expect-error: the tenant id is a required argument
    await expect(notes.list({})).rejects.toThrow('tenant id is required');
    // @ts-expect-error: a filter may not name the tenant
    expect(await notes.list('b', { tenant_id: 'a' })).toEqual([expect.objectContaining({ id: 3 })]);
    // @ts-expect-error: a stored row must carry its tenant
    await expect(notes.add({ id: 9, text: 'no tenant' })).rejects.toThrow(/tenant_id/);
  });
});
