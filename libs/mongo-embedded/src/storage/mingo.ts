import 'mingo/init/system';
import { ComputeOptions, initOptions, type Options } from 'mingo/core';
import { Query } from 'mingo';

// mingo copies its whole operator registry for every Query unless handed prebuilt options;
// reusing one ComputeOptions keeps per-query setup cost out of the hot path.
const QUERY_OPTIONS = ComputeOptions.init(initOptions({}));

export function queryOptions(): Partial<Options> {
  return QUERY_OPTIONS as unknown as Partial<Options>;
}

export function compileQuery(filter: Record<string, unknown>): Query {
  return new Query(filter, QUERY_OPTIONS as unknown as Partial<Options>);
}

export function computeOptions(options: Partial<Options>): Partial<Options> {
  return ComputeOptions.init(initOptions(options)) as unknown as Partial<Options>;
}
