import type { Document } from 'bson';
import { Aggregator, ProcessingMode } from 'mingo';
import { utcNamesAsOffsets } from '../query/timezones.js';
import { computeOptions } from '../storage/mingo.js';
import { badValue, CommandError } from '../errors.js';
import { carryUnchangedNumericTypes, shareNumericTypes } from '../numeric/types.js';
import { encodeKey } from '../storage/values.js';
import {
  aliasDoc,
  aliasedKeyCount,
  aliasSpec,
  mentionsUnsafe,
  unaliasOutput,
} from '../safety/unsafe-keys.js';
import type { Catalog } from '../storage/catalog.js';
import { type CommandHandler } from './context.js';
import { explainAggregate, leadingStages } from './explain.js';
import { outTarget, writeOut } from './out-stage.js';

const UNSUPPORTED_STAGES = new Set([
  '$merge',
  '$changeStream',
  '$geoNear',
  '$search',
  '$currentOp',
  '$collStats',
  '$indexStats',
]);

const aggregate: CommandHandler = (cmd, { catalog, cursors, db }) => {
  if (typeof cmd.aggregate !== 'string')
    throw badValue('database-level aggregation is not supported');
  if (!Array.isArray(cmd.pipeline))
    throw badValue("'pipeline' option must be specified as an array");
  const out = outTarget(cmd.pipeline as Document[], db);
  const pipeline = out ? (cmd.pipeline as Document[]).slice(0, -1) : (cmd.pipeline as Document[]);
  for (const stage of pipeline) {
    const op = Object.keys(stage)[0] ?? '';
    if (UNSUPPORTED_STAGES.has(op))
      throw new CommandError(40324, 'Location40324', `Unsupported pipeline stage: ${op}`);
  }
  const coll = catalog.get(db, cmd.aggregate);
  const lead = leadingStages(coll, pipeline, cmd.hint, !!cmd.explain);
  if (cmd.explain) return explainAggregate(`${db}.${cmd.aggregate}`, pipeline, lead);
  const ns = `${db}.${cmd.aggregate}`;
  const results = runRest(catalog, db, lead.docs, pipeline.slice(lead.consumed));
  if (!out) return cursors.first(ns, results, batchSizeOf(cmd));
  writeOut(catalog, out, results, cmd.bypassDocumentValidation);
  return cursors.first(ns, [], 0, true);
};

function runRest(catalog: Catalog, db: string, source: Document[], rest: Document[]): Document[] {
  // The stored documents themselves (their numeric types go out with them): nothing to compute.
  if (rest.length === 0) return source;
  // The pipeline works on copies (stages such as $addFields write into their input) in which
  // `__proto__`, `constructor` and `prototype` keys are aliased: mingo walks paths with plain
  // property access, which would reach a prototype instead of the field.
  const renamedBefore = aliasedKeyCount();
  const named = mentionsUnsafe(rest);
  const stages = utcNamesAsOffsets(named ? aliasSpec(rest, 'pipeline') : rest);
  let results = new Aggregator(
    stages,
    computeOptions({
      processingMode: ProcessingMode.CLONE_OFF,
      collectionResolver: (name: string) =>
        [...(catalog.get(db, name)?.docs.values() ?? [])].map(aliasDoc),
    }),
  ).run(source.map(workingCopy)) as Document[];
  if (named || aliasedKeyCount() !== renamedBefore) results = results.map(unaliasOutput);
  if (rest.every((stage) => PER_DOCUMENT.has(Object.keys(stage)[0]!)))
    carryTypesById(source, results);
  return results;
}

const workingCopy = (doc: Document): Document => {
  const copy = aliasDoc(doc);
  shareNumericTypes(doc, copy);
  return copy;
};

const batchSizeOf = (cmd: Document) =>
  (cmd.cursor as Document | undefined)?.batchSize as number | undefined;

/** Stages whose every output is one input document (same `_id`, fields at the same paths) or none. */
const PER_DOCUMENT = new Set([
  '$match',
  '$sort',
  '$skip',
  '$limit',
  '$addFields',
  '$set',
  '$unset',
  '$project',
  '$lookup',
  '$sample',
]);

/** Results of per-document stages keep the numeric types of the fields their source still holds. */
function carryTypesById(source: Document[], results: Document[]): void {
  if (results.length === 0) return;
  const byId = new Map<string, Document>();
  for (const doc of source) byId.set(encodeKey(doc._id), doc);
  for (const out of results) {
    const from = out._id === undefined ? undefined : byId.get(encodeKey(out._id));
    if (from) carryUnchangedNumericTypes(from, out);
  }
}

export const aggregateCommands: Record<string, CommandHandler> = { aggregate };
