import type { Document } from 'bson';
import type { Query } from 'mingo';
import { badValue, CommandError } from '../errors.js';
import { bsonTypeOf } from '../query/bson-types.js';
import { jsonSchemaFailure } from '../query/json-schema-errors.js';
import { compileQuery } from './mingo.js';
import type { Collection } from './collection.js';
import type { Logger } from '../logger.js';

/** A collection's schema validation, as `create` and `collMod` set it and `listCollections` shows it. */
export interface ValidationOptions {
  validator?: Document;
  validationLevel?: 'off' | 'strict' | 'moderate';
  validationAction?: 'error' | 'warn';
}

const LEVELS = ['off', 'strict', 'moderate'];
const ACTIONS = ['error', 'warn'];
// MongoDB refuses these inside a validator: they need a text or geo index, or server-side JavaScript.
const NOT_ALLOWED = new Set(['$where', '$text', '$near', '$nearSphere', '$geoNear']);

function checkValidator(v: unknown): void {
  if (Array.isArray(v)) for (const el of v) checkValidator(el);
  else if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
    for (const [k, sub] of Object.entries(v as Document)) {
      if (NOT_ALLOWED.has(k))
        throw new CommandError(
          224,
          'QueryFeatureNotAllowed',
          `${k} is not allowed in this context`,
        );
      checkValidator(sub);
    }
}

/**
 * The validation options of a `create` or `collMod` command, checked as MongoDB checks them;
 * only the fields the command names are returned.
 */
export function validationOptions(cmd: Document): ValidationOptions {
  const out: ValidationOptions = {};
  if (cmd.validator !== undefined) {
    const v = cmd.validator as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v))
      throw new CommandError(14, 'TypeMismatch', "'validator' must be an object");
    checkValidator(v);
    compileQuery(v as Document); // an unknown operator is BadValue here, not on the first write
    out.validator = v as Document;
  }
  if (cmd.validationLevel !== undefined) {
    if (!LEVELS.includes(cmd.validationLevel as string))
      throw badValue(
        `Enumeration value '${String(cmd.validationLevel)}' for field 'validationLevel' is not a valid value.`,
      );
    out.validationLevel = cmd.validationLevel as ValidationOptions['validationLevel'];
  }
  if (cmd.validationAction !== undefined) {
    if (!ACTIONS.includes(cmd.validationAction as string))
      throw badValue(
        `Enumeration value '${String(cmd.validationAction)}' for field 'validationAction' is not a valid value.`,
      );
    out.validationAction = cmd.validationAction as ValidationOptions['validationAction'];
  }
  return out;
}

// One compiled query per validator object (a collMod replaces the object, so entries never go stale).
const compiled = new WeakMap<Document, Query>();
function matches(validator: Document, doc: Document): boolean {
  let q = compiled.get(validator);
  if (!q) compiled.set(validator, (q = compileQuery(validator)));
  return q.test(doc);
}

/**
 * Checks a document about to be written against its collection's validator, as MongoDB does:
 * `oldDoc` is the version an update replaces (under `moderate`, an update of a document that
 * already failed validation is not checked); `bypass` is the command's `bypassDocumentValidation`.
 * Fails with 121 DocumentValidationFailure and `errInfo` naming the document and the clauses it
 * breaks; under `validationAction: 'warn'` the write goes through and the log notes it.
 */
export function assertValid(
  coll: Collection,
  doc: Document,
  {
    oldDoc,
    bypass,
    logger,
  }: { oldDoc?: Document; bypass?: unknown; logger?: Pick<Logger, 'warn'> } = {},
): void {
  const { validator, validationLevel = 'strict', validationAction = 'error' } = coll.options;
  if (!validator || bypass === true || validationLevel === 'off') return;
  if (matches(validator, doc)) return;
  if (validationLevel === 'moderate' && oldDoc && !matches(validator, oldDoc)) return;
  const errInfo = { failingDocumentId: doc._id, details: failureDetails(validator, doc) };
  if (validationAction === 'warn') {
    logger?.warn(`Document would fail validation on ${coll.ns}: ${JSON.stringify({ errInfo })}`);
    return;
  }
  throw new CommandError(121, 'DocumentValidationFailure', 'Document failed validation', {
    errInfo,
  });
}

/**
 * What MongoDB reports under `errInfo.details`, abbreviated for query operators: the operator of
 * each failing clause, the clause as specified, a reason, and the value considered (no nested
 * explanations of `$or`, `$and` or `$expr` clauses). `$jsonSchema` is explained in full
 * (query/json-schema-errors.ts).
 */
function failureDetails(validator: Document, doc: Document): Document {
  const clauses = Object.entries(validator).map(([k, v]) => ({ [k]: v }) as Document);
  if (clauses.length === 1) return clauseDetails(clauses[0]!, doc);
  return {
    operatorName: '$and',
    clausesNotSatisfied: clauses
      .map((c, index) => ({ index, c }))
      .filter(({ c }) => !matches(c, doc))
      .map(({ index, c }) => ({ index, details: clauseDetails(c, doc) })),
  };
}

const REASONS: Record<string, string> = {
  $type: 'type did not match',
  $exists: 'path does not exist',
  $in: 'no matching value found in array',
  $nin: 'matching value found in array',
  $regex: 'regular expression did not match',
  $expr: 'expression did not match',
  $ne: 'comparison succeeded',
};

function clauseDetails(clause: Document, doc: Document): Document {
  const [key, spec] = Object.entries(clause)[0]!;
  if (key === '$jsonSchema') return jsonSchemaFailure(spec as Document, doc);
  if (key.startsWith('$'))
    return {
      operatorName: key,
      specifiedAs: clause,
      reason: REASONS[key] ?? 'expression did not match',
    };
  const ops =
    spec &&
    typeof spec === 'object' &&
    !Array.isArray(spec) &&
    Object.keys(spec)[0]?.startsWith('$')
      ? Object.entries(spec as Document)
      : [['$eq', spec] as [string, unknown]];
  const failing = ops.find(([op, arg]) => !matches({ [key]: { [op]: arg } }, doc)) ?? ops[0]!;
  const [op, arg] = failing;
  const value = valueAt(doc, key);
  const details: Document = {
    operatorName: op,
    specifiedAs: { [key]: ops.length === 1 && op === '$eq' ? arg : { [op]: arg } },
    reason:
      value === undefined && op !== '$exists'
        ? 'field was missing'
        : (REASONS[op] ?? 'comparison failed'),
  };
  if (value !== undefined) {
    details.consideredValue = value;
    if (op === '$type') details.consideredType = bsonTypeOf(value);
  }
  return details;
}

function valueAt(doc: Document, path: string): unknown {
  let v: unknown = doc;
  for (const part of path.split('.')) {
    if (!v || typeof v !== 'object' || !Object.hasOwn(v, part)) return undefined;
    v = (v as Document)[part];
  }
  return v;
}
