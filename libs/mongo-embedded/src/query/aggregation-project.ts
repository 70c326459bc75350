import type { Document } from 'bson';
import type { Options } from 'mingo/core';
import { $project as mingoProject } from 'mingo/operators/pipeline';
import { compileProjection } from './projection.js';

type Stage = typeof mingoProject;

/** Only 1/0/true/false, possibly nested: what find and `$project` treat alike. */
function plainInclusionOrExclusion(spec: unknown): boolean {
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) return false;
  for (const [k, v] of Object.entries(spec as Document)) {
    if (k.startsWith('$') || k.endsWith('.$')) return false;
    if (typeof v === 'number' || typeof v === 'boolean') continue;
    if (!plainInclusionOrExclusion(v)) return false;
  }
  return true;
}

/**
 * `$project` of plain inclusions/exclusions with MongoDB's field order (the document's, `_id`
 * first); mingo puts included fields in the projection's order and `_id` last. Anything with
 * expressions stays mingo's.
 */
export const projectStage: Stage = (collection, expr, options: Options) => {
  const project = plainInclusionOrExclusion(expr) ? compileProjection(expr as Document) : undefined;
  return project
    ? collection.map((d) => project(d as Document))
    : mingoProject(collection, expr, options);
};
