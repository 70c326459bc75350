import type { Document } from 'bson';
import { Aggregator, ProcessingMode } from 'mingo';
import { computeOptions } from '../storage/mingo.js';
import { badValue, CommandError } from '../errors.js';
import { cloneDoc } from '../storage/values.js';
import { type CommandHandler } from './context.js';
import { explainAggregate, leadingStages } from './explain.js';

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
  const pipeline = cmd.pipeline as Document[];
  for (const stage of pipeline) {
    const op = Object.keys(stage)[0] ?? '';
    if (UNSUPPORTED_STAGES.has(op))
      throw new CommandError(40324, 'Location40324', `Unsupported pipeline stage: ${op}`);
  }
  const coll = catalog.get(db, cmd.aggregate);
  const lead = leadingStages(coll, pipeline, cmd.hint, !!cmd.explain);
  if (cmd.explain) return explainAggregate(`${db}.${cmd.aggregate}`, pipeline, lead);
  const source = lead.docs;
  const rest = pipeline.slice(lead.consumed);
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
