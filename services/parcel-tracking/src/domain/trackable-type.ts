import { TRACKABLE_TYPES, type TrackableType } from '@inventory/rules';

/**
 * A stored or received `trackable_type` as one of the types the rules know, or undefined. Rows and
 * events carry it as a string; code that branches on it compares the narrowed value, so a misspelt
 * type is a compile error rather than a branch that never runs.
 */
export function trackableTypeOf(value: string): TrackableType | undefined {
  return Object.hasOwn(TRACKABLE_TYPES, value) ? (value as TrackableType) : undefined;
}
