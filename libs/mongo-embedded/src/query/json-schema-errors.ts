import type { Document } from 'bson';
import { bsonTypeOf } from './bson-types.js';
import { compile, typeOf } from './json-schema.js';

/**
 * `errInfo.details` of a document failing a `$jsonSchema` validator, in MongoDB 7.0's shape:
 * `{operatorName: '$jsonSchema', schemaRulesNotSatisfied: [...]}`, one entry per failing keyword
 * (`properties` → `propertiesNotSatisfied` → each property's own failing keywords, `required` →
 * `missingProperties`, leaf keywords → `specifiedAs`, `reason`, `consideredValue`). Only reached
 * after the document failed, so each keyword is compiled again here on its own.
 */
export function jsonSchemaFailure(schema: Document, doc: Document): Document {
  return { operatorName: '$jsonSchema', schemaRulesNotSatisfied: rules(schema, doc, doc, '') };
}

const isPlain = (v: unknown): v is Document =>
  !!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
const child = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
const passes = (schema: Document, v: unknown, root: Document, path: string) =>
  compile(schema)(v, root, path);

// MongoDB's reason for each leaf keyword (doc_validation_error.cpp).
const REASONS: Record<string, string> = {
  type: 'type did not match',
  bsonType: 'type did not match',
  enum: 'value was not found in enum',
  minimum: 'comparison failed',
  maximum: 'comparison failed',
  multipleOf: 'considered value was not a multiple of the specified value',
  minLength: 'specified string length was not satisfied',
  maxLength: 'specified string length was not satisfied',
  pattern: 'regular expression did not match',
  minItems: 'array did not match specified length',
  maxItems: 'array did not match specified length',
  uniqueItems: 'found a duplicate item',
  minProperties: 'specified number of properties was not satisfied',
  maxProperties: 'specified number of properties was not satisfied',
};
// Keywords that only qualify another one, or only annotate.
const PASSIVE = new Set([
  'title',
  'description',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'additionalItems',
  'patternProperties',
  'additionalProperties',
]);

function annotations(schema: unknown): Document {
  const out: Document = {};
  if (isPlain(schema)) {
    if (typeof schema.title === 'string') out.title = schema.title;
    if (typeof schema.description === 'string') out.description = schema.description;
  }
  return out;
}

/** The failing keywords of `schema` for `v` (found at `path` of `root`), in the schema's order. */
function rules(schema: Document, v: unknown, root: Document, path: string): Document[] {
  const out: Document[] = [];
  for (const [keyword, arg] of Object.entries(schema)) {
    if (PASSIVE.has(keyword)) continue;
    if (keyword === 'properties') {
      out.push(...propertiesRules(schema, v, root, path));
      continue;
    }
    const own: Document = { [keyword]: arg };
    if (keyword === 'minimum' && schema.exclusiveMinimum !== undefined)
      own.exclusiveMinimum = schema.exclusiveMinimum;
    if (keyword === 'maximum' && schema.exclusiveMaximum !== undefined)
      own.exclusiveMaximum = schema.exclusiveMaximum;
    if (keyword === 'items' && schema.additionalItems !== undefined)
      own.additionalItems = schema.additionalItems;
    if (passes(own, v, root, path)) continue;
    out.push(keywordRule(keyword, arg, own, v, root, path));
  }
  // `additionalProperties` / `patternProperties` without `properties` are explained here.
  if (schema.properties === undefined) out.push(...propertiesRules(schema, v, root, path));
  return out;
}

function keywordRule(
  keyword: string,
  arg: unknown,
  own: Document,
  v: unknown,
  root: Document,
  path: string,
): Document {
  switch (keyword) {
    case 'required':
      return {
        operatorName: 'required',
        specifiedAs: own,
        missingProperties: (arg as string[]).filter((k) => !Object.hasOwn(v as Document, k)),
      };
    case 'items': {
      if (Array.isArray(arg)) return generic(keyword, own);
      const items = v as unknown[];
      const i = items.findIndex((e, n) => !passes(arg as Document, e, root, child(path, n)));
      return {
        operatorName: 'items',
        ...annotations(arg),
        reason: 'At least one item did not match the sub-schema',
        itemIndex: i,
        details: rules(arg as Document, items[i], root, child(path, i)),
      };
    }
    case 'allOf':
    case 'anyOf':
    case 'oneOf': {
      const subs = arg as Document[];
      const matching = subs.flatMap((s, i) => (passes(s, v, root, path) ? [i] : []));
      if (keyword === 'oneOf' && matching.length > 1)
        return {
          operatorName: 'oneOf',
          specifiedAs: own,
          reason: 'more than one subschema matched',
          matchingSchemaIndexes: matching,
        };
      return {
        operatorName: keyword,
        schemasNotSatisfied: subs.flatMap((s, index) =>
          matching.includes(index)
            ? []
            : [{ index, ...annotations(s), details: rules(s, v, root, path) }],
        ),
      };
    }
    case 'not':
      return { operatorName: 'not', specifiedAs: own, reason: 'child expression matched' };
  }
  const reason = REASONS[keyword];
  if (!reason) return generic(keyword, own);
  const rule: Document = { operatorName: keyword, specifiedAs: own, reason };
  if (keyword === 'uniqueItems') {
    const seen = new Map<string, unknown>();
    for (const e of v as unknown[]) {
      const k = JSON.stringify(e);
      if (seen.has(k)) return { ...rule, consideredValue: v, duplicatedValue: e };
      seen.set(k, e);
    }
  }
  if (keyword === 'minProperties' || keyword === 'maxProperties')
    return { ...rule, numberOfProperties: Object.keys(v as Document).length };
  rule.consideredValue = v;
  if (keyword === 'type' || keyword === 'bsonType') rule.consideredType = typeOf(v, root, path);
  return rule;
}

const generic = (keyword: string, own: Document): Document => ({
  operatorName: keyword,
  specifiedAs: own,
  reason: 'expression did not match',
});

/** `properties` (→ `propertiesNotSatisfied`), then `additionalProperties` of an object value. */
function propertiesRules(schema: Document, v: unknown, root: Document, path: string): Document[] {
  if (bsonTypeOf(v) !== 'object') return [];
  const value = v as Document;
  const out: Document[] = [];
  const additional = additionalRule(schema, value, root, path);
  const { properties } = schema;
  if (isPlain(properties)) {
    const failing: Document[] = [];
    for (const [name, sub] of Object.entries(properties)) {
      if (!Object.hasOwn(value, name) || !isPlain(sub)) continue;
      const at = child(path, name);
      if (passes(sub, value[name], root, at)) continue;
      failing.push({
        propertyName: name,
        ...annotations(sub),
        details: rules(sub, value[name], root, at),
      });
    }
    if (failing.length) out.push({ operatorName: 'properties', propertiesNotSatisfied: failing });
  }
  if (additional) out.push(additional);
  return out;
}

function additionalRule(
  schema: Document,
  value: Document,
  root: Document,
  path: string,
): Document | undefined {
  const { properties, additionalProperties, patternProperties } = schema;
  if (additionalProperties === undefined || additionalProperties === true) return undefined;
  const patterns = Object.keys(isPlain(patternProperties) ? patternProperties : {}).map(
    (re) => new RegExp(re, 'u'),
  );
  const extra = Object.keys(value).filter(
    (k) =>
      !(isPlain(properties) && Object.hasOwn(properties, k)) && !patterns.some((re) => re.test(k)),
  );
  if (additionalProperties === false)
    return extra.length
      ? {
          operatorName: 'additionalProperties',
          specifiedAs: { additionalProperties: false },
          additionalProperties: extra,
        }
      : undefined;
  if (!isPlain(additionalProperties)) return undefined;
  const bad = extra.find((k) => !passes(additionalProperties, value[k], root, child(path, k)));
  if (bad === undefined) return undefined;
  return {
    operatorName: 'additionalProperties',
    ...annotations(additionalProperties),
    reason: 'at least one additional property did not match the subschema',
    failingProperty: bad,
    details: rules(additionalProperties, value[bad], root, child(path, bad)),
  };
}
