/**
 * Server-side CPU per command (wire parse + execution, no sockets) of two versions of the server
 * code in one process (inside the repository, e.g. the ignored tmp/, so its imports resolve), alternating in rounds: an indexed find, a one-document insert and an
 * indexed `$inc` update on 20,000 documents. "Before" is another commit's source, extracted with
 *   mkdir -p tmp/before && git archive <commit> libs/mongo-embedded/src | tar -x -C tmp/before
 * Run: npx tsx --conditions=development bench/mongo-embedded/command-cpu.ts tmp/before/libs/mongo-embedded/src
 */
import os from 'node:os';
import path from 'node:path';
import { serialize, type Document } from 'bson';

interface Mod {
  executeCommand: (cmd: Document, ctx: object) => Document;
  parseMessage: (buf: Buffer) => { command: Document };
  Catalog: new () => object;
  CursorStore: new () => object;
}
async function load(root: string): Promise<Mod> {
  const reg = await import(`${root}/commands/registry.ts`);
  const msg = await import(`${root}/wire/messages.ts`);
  const cat = await import(`${root}/storage/catalog.ts`);
  const cur = await import(`${root}/commands/cursors.ts`);
  return {
    executeCommand: reg.executeCommand,
    parseMessage: msg.parseMessage,
    Catalog: cat.Catalog,
    CursorStore: cur.CursorStore,
  };
}
const opMsg = (cmd: Document) => {
  const body = serialize(cmd);
  const buf = Buffer.alloc(16 + 4 + 1 + body.length);
  buf.writeInt32LE(buf.length, 0);
  buf.writeInt32LE(1, 4);
  buf.writeInt32LE(0, 8);
  buf.writeInt32LE(2013, 12);
  buf.writeUInt32LE(0, 16);
  buf[20] = 0;
  buf.set(body, 21);
  return buf;
};
/**
 * A cursor's reply is built in slices since ADR 0617 (`StreamedReply`): every slice is run here,
 * so a find's figure includes building its batch, as before.
 */
const built = (reply: Document): Document => {
  const steps = (reply as { steps?: Iterator<void, Uint8Array> }).steps;
  if (!steps) return reply;
  for (let step = steps.next(); !step.done; step = steps.next());
  return reply;
};
const beforeRoot = process.argv[2];
if (!beforeRoot) throw new Error('usage: command-cpu.ts <before-src-dir>');
const OLD = await load(path.resolve(beforeRoot));
const NEW = await load(new URL('../../libs/mongo-embedded/src', import.meta.url).pathname);
const DOCS = 20000;
function setup(m: Mod) {
  const catalog = new m.Catalog();
  const ctx = { catalog, cursors: new m.CursorStore(), connectionId: 1 };
  const run = (cmd: Document) => built(m.executeCommand(m.parseMessage(opMsg(cmd)).command, ctx));
  run({ createIndexes: 'items', indexes: [{ key: { sku: 1 }, name: 'sku_1' }], $db: 'b' });
  for (let i = 0; i < DOCS; i += 500)
    run({
      insert: 'items',
      documents: Array.from({ length: 500 }, (_, j) => ({
        _id: `id-${i + j}`,
        sku: `sku-${i + j}`,
        code: `c-${i + j}`,
        qty: j % 97,
        at: new Date(),
      })),
      $db: 'b',
    });
  return run;
}
const runs = { old: setup(OLD), new: setup(NEW) };
let seq = 0;
const ops: [string, (run: (c: Document) => Document, i: number) => unknown][] = [
  [
    'find by indexed sku (limit 1)',
    (run, i) =>
      run({
        find: 'items',
        filter: { sku: `sku-${(i * 7919) % DOCS}` },
        limit: 1,
        singleBatch: true,
        batchSize: 1,
        $db: 'b',
      }),
  ],
  [
    'insert one document',
    (run) =>
      run({
        insert: 'items',
        documents: [{ _id: `n-${seq++}`, sku: `x-${seq}`, code: 'w', qty: 1, at: new Date() }],
        ordered: true,
        $db: 'b',
      }),
  ],
  [
    'update $inc by indexed sku',
    (run, i) =>
      run({
        update: 'items',
        updates: [{ q: { sku: `sku-${(i * 7919) % DOCS}` }, u: { $inc: { qty: 1 } } }],
        ordered: true,
        $db: 'b',
      }),
  ],
];
const N = 3000;
const ROUNDS = Number(process.argv[3] ?? 7);
const res: Record<string, Record<string, number[]>> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, fn] of ops) {
    for (const v of round % 2 ? (['new', 'old'] as const) : (['old', 'new'] as const)) {
      const run = runs[v];
      for (let i = 0; i < 300; i++) fn(run, i);
      const t0 = process.cpuUsage();
      for (let i = 0; i < N; i++) fn(run, i);
      const t = process.cpuUsage(t0);
      ((res[label] ??= {})[v] ??= []).push((t.user + t.system) / N);
    }
  }
}
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
console.log(
  `load avg ${os.loadavg()[0]!.toFixed(1)}; ${N} ops x ${ROUNDS} rounds, median µs CPU/op (before = argv[2], after = this tree)`,
);
for (const [label, r] of Object.entries(res))
  console.log(
    `| ${label} | ${med(r.old!).toFixed(1)} | ${med(r.new!).toFixed(1)} | ${(med(r.new!) / med(r.old!)).toFixed(2)}x |`,
  );
