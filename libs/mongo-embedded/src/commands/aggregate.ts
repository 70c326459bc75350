import type { Document } from 'bson';
import { Aggregator, ProcessingMode } from 'mingo';
import { computeOptions } from '../storage/mingo.js';
import { badValue, CommandError } from '../errors.js';
import { cloneDoc } from '../storage/values.js';
import { type CommandHandler } from './context.js';

const UNSUPPORTED_STAGES = new Set([
  '$out',
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
  if (cmd.explain) throw badValue('explain is not supported');
  const pipeline = cmd.pipeline as Document[];
  for (const stage of pipeline) {
    const op = Object.keys(stage)[0] ?? '';
    if (UNSUPPORTED_STAGES.has(op))
      throw new CommandError(40324, 'Location40324', `Unsupported pipeline stage: ${op}`);
  }
  const coll = catalog.get(db, cmd.aggregate);
  // A leading $match can use an index; the rest of the pipeline runs in mingo on the narrowed set.
  const lead = pipeline[0]?.$match as Document | undefined;
  const source = coll ? (lead ? coll.find(lead) : [...coll.docs.values()]) : [];
  const rest = lead ? pipeline.slice(1) : pipeline;
  const results = new Aggregator(
    rest,
    computeOptions({
      // Stages such as $addFields would otherwise write into the stored documents.
      processingMode: ProcessingMode.CLONE_INPUT,
      collectionResolver: (name: string) =>
        [...(catalog.get(db, name)?.docs.values() ?? [])].map(cloneDoc),
    }),
  ).run(source) as Document[];
  const batchSize = (cmd.cursor as Document | undefined)?.batchSize as number | undefined;
  return cursors.first(`${db}.${cmd.aggregate}`, results, batchSize);
};

export const aggregateCommands: Record<string, CommandHandler> = { aggregate };
