import { startTestInfra, type TestInfra } from '@inventory/local-infra';
import { Schema, type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, TenantScopedRepository, type ScopedFilter } from '../src/index.js';

interface Note {
  tenant_id: string;
  id: number;
  text: string;
}

const schema = new Schema<Note>(
  { tenant_id: { type: String, required: true }, id: Number, text: String },
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
    expect(await notes.rename('a', hostile({ tenant_id: 'b', id: 3 }), 'taken')).toEqual({
      matched: 0,
      modified: 0,
    });
    expect(await notes.remove('a', hostile({ tenant_id: 'b' }))).toBe(2);
    expect((await notes.list('b', {})).map((note) => note.text)).toEqual(['b3']);
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
