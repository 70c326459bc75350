import { Query } from 'mingo';

/**
 * A subscription's content filter (ADR 0418): a subset of MongoDB's query language over the
 * event's `data`, so a delivery is made only when it matches. `{"warehouse_id": 3}`,
 * `{"sku": {"$startsWith": "ACME-"}}`, `{"quantity": {"$lt": 10}}`, combined with `$and` / `$or`.
 * Field paths are dotted (`lines.sku`); a path through an array matches when any element does,
 * as in MongoDB. Comparisons follow MongoDB's type brackets: `{"$gt": 2}` never matches a string.
 */
export type ContentFilter = Record<string, unknown>;

export const CONTENT_FILTER_LIMITS = {
  /** The filter as JSON text. */
  maxLength: 4096,
  /** Nesting of `$and` / `$or` / `$not`. */
  maxDepth: 5,
  /** Conditions on fields, over the whole filter. */
  maxConditions: 50,
  /** Values of one `$in` / `$nin`. */
  maxListItems: 100,
  maxStringLength: 256,
} as const;

const COMPARISONS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte'] as const;
const LISTS = ['$in', '$nin'] as const;
const TEXT = ['$startsWith', '$endsWith', '$contains'] as const;
/** Every operator a field condition may use, in the order the documentation lists them. */
export const FIELD_OPERATORS = [...COMPARISONS, ...LISTS, '$exists', ...TEXT, '$not'] as const;
export const LOGICAL_OPERATORS = ['$and', '$or'] as const;

const PATH = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

class FilterProblem extends Error {}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

const isScalar = (value: unknown) =>
  value === null ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  typeof value === 'string';

/** Reads a filter as sent: null (or absent) is "every event", anything else must be valid. */
export function readContentFilter(
  value: unknown,
): { filter: ContentFilter | null } | { problem: string } {
  if (value === null || value === undefined) return { filter: null };
  if (!isPlainObject(value))
    return { problem: 'The filter must be a JSON object, or null for every event.' };
  if (JSON.stringify(value).length > CONTENT_FILTER_LIMITS.maxLength)
    return {
      problem: `The filter may be at most ${CONTENT_FILTER_LIMITS.maxLength} characters as JSON.`,
    };
  const counter = { conditions: 0 };
  try {
    checkDocument(value, '', 1, counter);
  } catch (error) {
    if (error instanceof FilterProblem) return { problem: error.message };
    throw error;
  }
  return { filter: Object.keys(value).length === 0 ? null : value };
}

const at = (where: string) => (where === '' ? 'the filter' : `filter.${where}`);

function checkDocument(
  document: Record<string, unknown>,
  where: string,
  depth: number,
  counter: { conditions: number },
): void {
  if (depth > CONTENT_FILTER_LIMITS.maxDepth)
    throw new FilterProblem(
      `The filter nests deeper than ${CONTENT_FILTER_LIMITS.maxDepth} levels at ${at(where)}.`,
    );
  for (const [key, condition] of Object.entries(document)) {
    const here = where === '' ? key : `${where}.${key}`;
    if ((LOGICAL_OPERATORS as readonly string[]).includes(key)) {
      if (!Array.isArray(condition) || condition.length === 0)
        throw new FilterProblem(`${key} at ${at(where)} must be a non-empty list of filters.`);
      condition.forEach((member, index) => {
        if (!isPlainObject(member))
          throw new FilterProblem(`${at(`${here}.${index}`)} must be an object.`);
        checkDocument(member, `${here}.${index}`, depth + 1, counter);
      });
      continue;
    }
    if (key.startsWith('$'))
      throw new FilterProblem(
        `${key} is not supported at ${at(where)}: use a field name, $and or $or.`,
      );
    if (!PATH.test(key) || key.split('.').some((segment) => FORBIDDEN_SEGMENTS.has(segment)))
      throw new FilterProblem(
        `"${key}" at ${at(where)} is not a field path: letters, digits and _ separated by dots.`,
      );
    counter.conditions += 1;
    if (counter.conditions > CONTENT_FILTER_LIMITS.maxConditions)
      throw new FilterProblem(
        `The filter may have at most ${CONTENT_FILTER_LIMITS.maxConditions} conditions.`,
      );
    checkCondition(condition, here, depth);
  }
}

function checkCondition(condition: unknown, where: string, depth: number): void {
  if (isScalar(condition)) return checkValue(condition, where);
  if (!isPlainObject(condition))
    throw new FilterProblem(
      `${at(where)} must be a string, number, boolean, null or an object of operators.`,
    );
  const operators = Object.entries(condition);
  if (operators.length === 0) throw new FilterProblem(`${at(where)} has no operator.`);
  // Each becomes MongoDB's one `$regex` of the condition: two would overwrite each other.
  if (operators.filter(([operator]) => (TEXT as readonly string[]).includes(operator)).length > 1)
    throw new FilterProblem(
      `${at(where)} may use one of ${TEXT.join(', ')}; combine several with $and.`,
    );
  for (const [operator, operand] of operators) {
    const here = `${where}.${operator}`;
    if ((COMPARISONS as readonly string[]).includes(operator)) {
      if (!isScalar(operand))
        throw new FilterProblem(`${at(here)} must be a string, number, boolean or null.`);
      checkValue(operand, here);
    } else if ((LISTS as readonly string[]).includes(operator)) {
      if (
        !Array.isArray(operand) ||
        operand.length === 0 ||
        operand.length > CONTENT_FILTER_LIMITS.maxListItems
      )
        throw new FilterProblem(
          `${at(here)} must be a list of 1 to ${CONTENT_FILTER_LIMITS.maxListItems} values.`,
        );
      operand.forEach((item, index) => {
        if (!isScalar(item))
          throw new FilterProblem(
            `${at(`${here}.${index}`)} must be a string, number, boolean or null.`,
          );
        checkValue(item, `${here}.${index}`);
      });
    } else if (operator === '$exists') {
      if (typeof operand !== 'boolean')
        throw new FilterProblem(`${at(here)} must be true or false.`);
    } else if ((TEXT as readonly string[]).includes(operator)) {
      if (typeof operand !== 'string' || operand === '')
        throw new FilterProblem(`${at(here)} must be a non-empty string.`);
      checkValue(operand, here);
    } else if (operator === '$not') {
      if (depth + 1 > CONTENT_FILTER_LIMITS.maxDepth)
        throw new FilterProblem(
          `The filter nests deeper than ${CONTENT_FILTER_LIMITS.maxDepth} levels at ${at(here)}.`,
        );
      if (!isPlainObject(operand))
        throw new FilterProblem(`${at(here)} must be an object of operators.`);
      checkCondition(operand, where, depth + 1);
    } else {
      throw new FilterProblem(
        `${operator} at ${at(where)} is not supported; the operators are ${FIELD_OPERATORS.join(', ')}.`,
      );
    }
  }
}

function checkValue(value: unknown, where: string): void {
  if (typeof value === 'string' && value.length > CONTENT_FILTER_LIMITS.maxStringLength)
    throw new FilterProblem(
      `${at(where)} may have at most ${CONTENT_FILTER_LIMITS.maxStringLength} characters.`,
    );
  if (typeof value === 'string' && value.includes('\u0000'))
    throw new FilterProblem(`${at(where)} must not contain NUL characters.`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Our text operators as MongoDB's `$regex` of the escaped literal: no user pattern is run. */
function toQuery(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toQuery);
  if (!isPlainObject(value)) return value;
  const query: Record<string, unknown> = {};
  for (const [key, operand] of Object.entries(value)) {
    if (key === '$startsWith') query.$regex = new RegExp(`^${escapeRegExp(operand as string)}`);
    else if (key === '$endsWith') query.$regex = new RegExp(`${escapeRegExp(operand as string)}$`);
    else if (key === '$contains') query.$regex = new RegExp(escapeRegExp(operand as string));
    else query[key] = toQuery(operand);
  }
  return query;
}

/** A checked filter as a test of an event's data. */
export function compileContentFilter(filter: ContentFilter): (data: unknown) => boolean {
  const query = new Query(toQuery(filter) as Record<string, unknown>);
  return (data) => isPlainObject(data) && query.test(data);
}

/** Compiled filters by their JSON text: a subscription's filter is compiled once, not per event. */
const compiled = new Map<string, (data: unknown) => boolean>();
const MAX_COMPILED = 10_000;

/** Whether a stored filter (JSON text, already checked; null: none) lets `data` through. */
export function passesContentFilter(filterJson: string | null | undefined, data: unknown): boolean {
  if (!filterJson) return true;
  let test = compiled.get(filterJson);
  if (!test) {
    test = compileContentFilter(JSON.parse(filterJson) as ContentFilter);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(filterJson, test);
  }
  return test(data);
}
