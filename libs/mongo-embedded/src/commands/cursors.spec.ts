import { deserialize, Long, serialize, type Document } from 'bson';
import { describe, expect, it } from 'vitest';
import { cursorReplyBody, SLICE_DOCS, type StreamedReply } from './batch-reply.js';
import { compileProjection } from '../query/projection.js';
import { CursorStore } from './cursors.js';

/** Runs every slice of a reply; answers the reply and how many slices it took. */
function drain(reply: StreamedReply): { doc: Document; slices: number } {
  let slices = 1;
  for (let next = reply.steps.next(); ; next = reply.steps.next(), slices++) {
    if (next.done) return { doc: deserialize(next.value, { promoteLongs: false }), slices };
  }
}

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ _id: i, i, pad: 'x'.repeat(20) }));

describe('cursorReplyBody', () => {
  it('is byte for byte what serialize gives for the whole reply', () => {
    const docs = [{ a: 1 }, { b: 'two', c: [1, { d: null }] }, {}];
    for (const [field, batch, id] of [
      ['firstBatch', docs, 0],
      ['nextBatch', docs, 123456789],
      ['firstBatch', [], 7],
    ] as const) {
      const expected = serialize({
        cursor: { [field]: batch, id: Long.fromNumber(id), ns: 'db.coll' },
        ok: 1,
      });
      const body = cursorReplyBody(
        field,
        batch.map((d) => serialize(d)),
        id,
        'db.coll',
      );
      expect(Buffer.from(body).equals(Buffer.from(expected))).toBe(true);
    }
  });
});

describe('CursorStore', () => {
  it('projects only the documents a batch sends, not every result when the cursor opens', () => {
    const cursors = new CursorStore();
    const shaped: number[] = [];
    const shape = (d: Document) => {
      shaped.push(d.i as number);
      return { i: d.i as number };
    };
    const { doc } = drain(cursors.first('db.c', rows(5000), undefined, false, false, shape));
    const cursor = doc.cursor as Document;
    expect(cursor.firstBatch).toHaveLength(101);
    expect(shaped).toEqual(Array.from({ length: 101 }, (_, i) => i));
    const more = drain(cursors.more(Number(cursor.id), 'db.c', 10)).doc.cursor as Document;
    expect(more.nextBatch).toEqual(Array.from({ length: 10 }, (_, i) => ({ i: 101 + i })));
    expect(shaped).toHaveLength(111);
    cursors.kill([Number(cursor.id)]);
    expect(shaped).toHaveLength(111);
  });

  it('builds a long batch in slices of at most SLICE_DOCS documents, all in order', () => {
    const cursors = new CursorStore();
    const n = SLICE_DOCS * 3 + 17;
    const { doc, slices } = drain(cursors.first('db.c', rows(n), n + 1));
    expect(slices).toBeGreaterThanOrEqual(4);
    const batch = (doc.cursor as Document).firstBatch as Document[];
    expect(batch.map((d) => d.i as number)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(Number((doc.cursor as Document).id)).toBe(0);
  });

  it('a batch that fits one slice is answered by the first step', () => {
    expect(drain(new CursorStore().first('db.c', rows(500), 1000)).slices).toBe(1);
  });

  it('a getMore whose projection fails answers the error and forgets the cursor', () => {
    const cursors = new CursorStore();
    const shape = (d: Document) => {
      if (d.i === 150) throw new Error('bad document');
      return d;
    };
    const { doc } = drain(cursors.first('db.c', rows(300), 101, false, false, shape));
    const id = Number((doc.cursor as Document).id);
    expect(() => drain(cursors.more(id, 'db.c'))).toThrow('bad document');
    expect(() => cursors.more(id, 'db.c')).toThrow(/cursor id/);
  });

  it('refuses a getMore while another is building a batch of the same cursor, as mongod does', () => {
    const cursors = new CursorStore();
    const n = SLICE_DOCS * 3;
    const { doc } = drain(cursors.first('db.c', rows(n), 1));
    const id = Number((doc.cursor as Document).id);
    const first = cursors.more(id, 'db.c', n);
    expect(first.steps.next().done).toBe(false);
    expect(() => cursors.more(id, 'db.c')).toThrow(`cursor id ${id} is already in use`);
    let step = first.steps.next();
    while (!step.done) step = first.steps.next();
    // Released once the batch is built (the cursor is exhausted: asking again is not found).
    expect(() => cursors.more(id, 'db.c')).toThrow('not found');
  });

  it('releases a cursor whose batch was abandoned with its connection', () => {
    const cursors = new CursorStore();
    const { doc } = drain(cursors.first('db.c', rows(SLICE_DOCS * 3), 1));
    const id = Number((doc.cursor as Document).id);
    const abandoned = cursors.more(id, 'db.c', SLICE_DOCS * 2);
    expect(abandoned.steps.next().done).toBe(false);
    abandoned.steps.return?.(undefined as never);
    const { doc: next } = drain(cursors.more(id, 'db.c', 1));
    expect((next.cursor as Document).nextBatch).toHaveLength(1);
  });

  it("names the getMore in a projection's failure there, and the find in the first batch", () => {
    const docs = rows(300).map((row) => ({ ...row, a: row.i === 150 || row.i === 0 ? [9] : [1] }));
    const positional = compileProjection({ 'a.$': 1 }, { a: 1 })!;
    expect(() =>
      drain(new CursorStore().first('db.c', docs, 101, false, false, positional)),
    ).toThrow(/^Executor error during find command :: caused by :: positional operator/);
    const cursors = new CursorStore();
    const { doc } = drain(cursors.first('db.c', docs.slice(1), 101, false, false, positional));
    const id = Number((doc.cursor as Document).id);
    expect(() => drain(cursors.more(id, 'db.c'))).toThrow(
      /^Executor error during getMore :: caused by :: positional operator/,
    );
  });
});
