import { deserialize, serialize } from 'bson';
import { describe, expect, it } from 'vitest';
import { FramingError, MessageFramer } from './framing.js';
import { ProtocolError, RAW_DOCUMENTS, parseMessage } from './messages.js';
import { encodeOpMsg, encodeOpReply } from './replies.js';

function opMsg(flags: number, sections: Buffer[]): Buffer {
  const body = Buffer.concat([Buffer.alloc(4), ...sections]);
  body.writeUInt32LE(flags, 0);
  const head = Buffer.alloc(16);
  head.writeInt32LE(16 + body.length, 0);
  head.writeInt32LE(5, 4);
  head.writeInt32LE(2013, 12);
  return Buffer.concat([head, body]);
}

const kind0 = (doc: object) => Buffer.concat([Buffer.from([0]), serialize(doc)]);
function kind1(id: string, docs: object[]): Buffer {
  const payload = Buffer.concat([Buffer.from(`${id}\0`), ...docs.map((d) => serialize(d))]);
  const size = Buffer.alloc(4);
  size.writeInt32LE(4 + payload.length, 0);
  return Buffer.concat([Buffer.from([1]), size, payload]);
}

describe('parseMessage', () => {
  it('folds document sequences into the command', () => {
    const msg = parseMessage(
      opMsg(0, [kind0({ insert: 'c', $db: 'd' }), kind1('documents', [{ a: 1 }, { a: 2 }])]),
    );
    expect(msg).toMatchObject({
      kind: 'msg',
      command: { insert: 'c', $db: 'd', documents: [{ a: 1 }, { a: 2 }] },
      moreToCome: false,
    });
  });

  it("keeps the bytes of an insert's documents, in the body or in a sequence", () => {
    const raw = (c: object) =>
      (c as Record<symbol, Uint8Array[] | undefined>)[RAW_DOCUMENTS]?.map((b) => Buffer.from(b));
    const docs = [{ _id: 1, s: 'é', at: new Date(3) }, { _id: 2 }];
    const inBody = parseMessage(opMsg(0, [kind0({ insert: 'c', documents: docs, $db: 'd' })]));
    expect(inBody.command).toEqual({ insert: 'c', documents: docs, $db: 'd' });
    expect(raw(inBody.command)).toEqual(docs.map((d) => serialize(d)));
    const inSeq = parseMessage(
      opMsg(0, [kind0({ insert: 'c', $db: 'd' }), kind1('documents', docs)]),
    );
    expect(raw(inSeq.command)).toEqual(docs.map((d) => serialize(d)));
    // Entries that are not documents: a plain decode, no bytes.
    const odd = parseMessage(opMsg(0, [kind0({ insert: 'c', documents: [{ a: 1 }, 5] })]));
    expect(odd.command).toEqual({ insert: 'c', documents: [{ a: 1 }, 5] });
    expect(raw(odd.command)).toBeUndefined();
    // Only for inserts: elsewhere a `documents` field is just data.
    const other = parseMessage(opMsg(0, [kind0({ find: 'c', filter: { documents: [{ a: 1 }] } })]));
    expect(other.command).toEqual({ find: 'c', filter: { documents: [{ a: 1 }] } });
    expect(raw(other.command)).toBeUndefined();
    // A sequence replaces the body's `documents`, bytes included.
    const both = parseMessage(
      opMsg(0, [kind0({ insert: 'c', documents: [{ x: 1 }] }), kind1('documents', docs)]),
    );
    expect(both.command.documents).toEqual(docs);
    expect(raw(both.command)).toEqual(docs.map((d) => serialize(d)));
    // Invalid UTF-8 inside a document is accepted, as MongoDB stores it (issue 47, item 13).
    const invalid = parseMessage(
      opMsg(0, [
        Buffer.concat([
          Buffer.from([0]),
          (() => {
            const b = Buffer.from(serialize({ insert: 'c', documents: [{ s: 'x' }] }));
            b[b.indexOf('x', 20)] = 0xff;
            return b;
          })(),
        ]),
      ]),
    );
    expect(invalid.command.documents).toEqual([{ s: '\ufffd' }]);
  });

  it('ignores a trailing checksum and reports moreToCome', () => {
    const withSum = Buffer.concat([opMsg(3, [kind0({ ping: 1 })]), Buffer.alloc(4)]);
    withSum.writeInt32LE(withSum.length, 0);
    expect(parseMessage(withSum)).toMatchObject({ command: { ping: 1 }, moreToCome: true });
  });

  it('rejects hostile input with ProtocolError', () => {
    const good = opMsg(0, [kind0({ ping: 1 })]);
    expect(() => parseMessage(good.subarray(0, 10))).toThrow(ProtocolError);
    const wrongOp = Buffer.from(good);
    wrongOp.writeInt32LE(42, 12);
    expect(() => parseMessage(wrongOp)).toThrow(/opCode/);
    const lying = Buffer.from(good);
    lying.writeInt32LE(1000, 21);
    expect(() => parseMessage(lying)).toThrow(ProtocolError);
    expect(() => parseMessage(opMsg(0, [Buffer.from([7, 1, 2])]))).toThrow(/section kind/);
    expect(() => parseMessage(opMsg(1 << 5, [kind0({ ping: 1 })]))).toThrow(/flags/);
  });

  it('round-trips replies', () => {
    const msg = encodeOpMsg(9, { ok: 1 });
    expect(msg.readInt32LE(0)).toBe(msg.length);
    expect(msg.readInt32LE(8)).toBe(9);
    expect(deserialize(msg.subarray(21))).toEqual({ ok: 1 });
    const reply = encodeOpReply(3, { ok: 1 });
    expect(reply.readInt32LE(12)).toBe(1);
    expect(deserialize(reply.subarray(36))).toEqual({ ok: 1 });
  });
});

describe('MessageFramer', () => {
  it('reassembles messages split across chunks', () => {
    const a = encodeOpMsg(1, { x: 1 });
    const b = encodeOpMsg(2, { y: 2 });
    const all = Buffer.concat([a, b]);
    const f = new MessageFramer();
    expect(f.push(all.subarray(0, 3))).toEqual([]);
    const out = [...f.push(all.subarray(3, a.length + 5)), ...f.push(all.subarray(a.length + 5))];
    expect(out.map((m) => m.length)).toEqual([a.length, b.length]);
  });

  it('throws on impossible lengths', () => {
    const bad = Buffer.alloc(16);
    bad.writeInt32LE(49_000_000, 0);
    expect(() => new MessageFramer().push(bad)).toThrow(FramingError);
    bad.writeInt32LE(3, 0);
    expect(() => new MessageFramer().push(bad)).toThrow(FramingError);
  });
});
