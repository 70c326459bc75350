import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, MongoServerError, type CommandSucceededEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../src/index.js';

let server: EmbeddedMongo;
let client: MongoClient;
let dataDir: string;
const replies: CommandSucceededEvent[] = [];
const warnings: string[] = [];
const logger = { info() {}, error() {}, warn: (m: string) => void warnings.push(m) };
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mongo-embedded-validation-'));
  server = await startEmbeddedMongo({ dataDir, logger });
  client = await new MongoClient(server.url, { monitorCommands: true }).connect();
  client.on('commandSucceeded', (e) => replies.push(e));
});
afterAll(async () => {
  await client.close();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

// Documents with numeric ids (the driver's default type expects ObjectIds).
type Doc = { _id: number; [field: string]: unknown };
const db = () => client.db('validation');
const failed = (failingDocumentId: unknown) => ({
  code: 121,
  errInfo: { failingDocumentId, details: expect.any(Object) },
});

describe('schema validation (query-operator validators), as MongoDB 7', () => {
  it('refuses an invalid insert with 121 and errInfo; bypassDocumentValidation lets it in', async () => {
    const c = await db().createCollection<Doc>('strings', {
      validator: { x: { $type: 'string' } },
    });
    await c.insertOne({ _id: 1, x: 'a' });
    replies.length = 0;
    const err = await c.insertOne({ _id: 2, x: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err).toMatchObject(failed(2));
    expect((err as MongoServerError).errInfo?.details).toMatchObject({
      operatorName: '$type',
      specifiedAs: { x: { $type: 'string' } },
      reason: 'type did not match',
      consideredValue: 1,
      consideredType: 'int',
    });
    // The reply carries it in writeErrors[0].errInfo, as MongoDB's does.
    const reply = replies.find((r) => r.commandName === 'insert')!.reply as {
      writeErrors: { errInfo: unknown }[];
    };
    expect(reply.writeErrors[0]!.errInfo).toEqual((err as MongoServerError).errInfo);
    await c.insertOne({ _id: 3, x: 1 }, { bypassDocumentValidation: true });
    expect(await c.find().toArray()).toEqual([
      { _id: 1, x: 'a' },
      { _id: 3, x: 1 },
    ]);
    expect(await c.options()).toEqual({ validator: { x: { $type: 'string' } } });
  });

  it('checks updates, upserts, replacements and findAndModify; nothing is written on failure', async () => {
    const c = await db().createCollection<Doc>('required', { validator: { a: { $exists: true } } });
    await c.insertOne({ _id: 1, a: 1 });
    await expect(c.updateOne({ _id: 1 }, { $unset: { a: '' } })).rejects.toMatchObject(failed(1));
    await expect(c.replaceOne({ _id: 1 }, { b: 1 })).rejects.toMatchObject(failed(1));
    await expect(c.updateOne({ b: 1 }, { $set: { b: 1 } }, { upsert: true })).rejects.toMatchObject(
      { code: 121 },
    );
    await expect(c.findOneAndUpdate({ _id: 1 }, { $unset: { a: '' } })).rejects.toMatchObject(
      failed(1),
    );
    await expect(
      c.bulkWrite([{ insertOne: { document: { _id: 9, b: 1 } } }]),
    ).rejects.toMatchObject({ code: 121 });
    expect(await c.find().toArray()).toEqual([{ _id: 1, a: 1 }]);
    await c.updateOne({ _id: 1 }, { $unset: { a: '' } }, { bypassDocumentValidation: true });
    await c.findOneAndReplace({ c: 1 }, { c: 1 }, { upsert: true, bypassDocumentValidation: true });
    expect(await c.countDocuments()).toBe(2);
  });

  it('a validator with several clauses names the ones not satisfied', async () => {
    const c = await db().createCollection<Doc>('two', {
      validator: { a: { $gte: 0 }, b: { $in: ['x', 'y'] } },
    });
    const err = (await c
      .insertOne({ _id: 1, a: 5, b: 'z' })
      .catch((e: unknown) => e)) as MongoServerError;
    expect(err.errInfo?.details).toEqual({
      operatorName: '$and',
      clausesNotSatisfied: [
        {
          index: 1,
          details: {
            operatorName: '$in',
            specifiedAs: { b: { $in: ['x', 'y'] } },
            reason: 'no matching value found in array',
            consideredValue: 'z',
          },
        },
      ],
    });
  });

  it('collMod sets, relaxes and removes the validator; moderate spares documents already invalid', async () => {
    const c = db().collection<Doc>('later');
    await c.insertMany([
      { _id: 1, n: 1 },
      { _id: 2, n: 'one' },
    ]);
    expect(await db().command({ collMod: 'later', validator: { n: { $type: 'number' } } })).toEqual(
      { ok: 1 },
    );
    expect(await c.options()).toEqual({
      validator: { n: { $type: 'number' } },
      validationLevel: 'strict',
      validationAction: 'error',
    });
    await expect(c.updateOne({ _id: 2 }, { $set: { m: 1 } })).rejects.toMatchObject(failed(2));
    await db().command({ collMod: 'later', validationLevel: 'moderate' });
    await c.updateOne({ _id: 2 }, { $set: { m: 1 } }); // was invalid already: not checked
    await expect(c.updateOne({ _id: 1 }, { $set: { n: 'x' } })).rejects.toMatchObject(failed(1));
    await db().command({ collMod: 'later', validationAction: 'warn' });
    await c.insertOne({ _id: 3, n: 'warned' });
    expect(warnings).toEqual([
      expect.stringMatching(
        /Document would fail validation on validation\.later: .*"failingDocumentId":3/,
      ),
    ]);
    await db().command({ collMod: 'later', validationAction: 'error', validationLevel: 'off' });
    await c.insertOne({ _id: 4, n: 'off' });
    await db().command({ collMod: 'later', validator: {}, validationLevel: 'strict' });
    await c.insertOne({ _id: 5, n: 'anything' });
    expect(await c.countDocuments()).toBe(5);
  });

  it('$out into a validated collection is checked, unless bypassed', async () => {
    const src = db().collection<Doc>('out_src');
    await src.insertMany([{ _id: 1, t: 'a' }]);
    await db().createCollection<Doc>('out_dst', { validator: { must: { $exists: true } } });
    await expect(src.aggregate([{ $out: 'out_dst' }]).toArray()).rejects.toMatchObject({
      code: 121,
    });
    await src.aggregate([{ $out: 'out_dst' }], { bypassDocumentValidation: true }).toArray();
    const dst = db().collection<Doc>('out_dst');
    expect(await dst.find().toArray()).toEqual([{ _id: 1, t: 'a' }]);
    expect(await dst.options()).toEqual({ validator: { must: { $exists: true } } });
  });

  it('renameCollection keeps the validator', async () => {
    await db().createCollection<Doc>('before_rename', { validator: { k: { $exists: true } } });
    await client
      .db('admin')
      .command({ renameCollection: 'validation.before_rename', to: 'validation.renamed' });
    await expect(db().collection<Doc>('renamed').insertOne({ _id: 1 })).rejects.toMatchObject(
      failed(1),
    );
  });

  it('answers MongoDB errors for bad options and a missing collection', async () => {
    await expect(
      db().createCollection<Doc>('bad1', { validationLevel: 'sometimes' as never }),
    ).rejects.toMatchObject({ code: 2 });
    await expect(
      db().createCollection<Doc>('bad2', { validator: { $where: 'true' } }),
    ).rejects.toMatchObject({ code: 224 });
    await expect(
      db().createCollection<Doc>('bad3', { validator: { a: { $bogus: 1 } } }),
    ).rejects.toMatchObject({ code: 2 });
    await expect(db().command({ collMod: 'missing', validator: { a: 1 } })).rejects.toMatchObject({
      code: 26,
    });
    const names = (await db().listCollections().toArray()).map((c) => c.name);
    expect(names.filter((n) => n.startsWith('bad'))).toEqual([]);
  });

  it('the validator and collMod survive a restart from the journal', async () => {
    await client.close();
    await server.stop();
    server = await startEmbeddedMongo({ dataDir });
    client = await new MongoClient(server.url).connect();
    await expect(
      db().collection<Doc>('strings').insertOne({ _id: 10, x: 2 }),
    ).rejects.toMatchObject({
      code: 121,
    });
    expect(await db().collection<Doc>('later').options()).toMatchObject({
      validationLevel: 'strict',
    });
    await db().collection<Doc>('later').insertOne({ _id: 10, n: 'still anything' });
  });
});
