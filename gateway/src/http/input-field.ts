/**
 * One input field as a route declares it (ADR 0015): the check that reads it, with Laravel's
 * wording, and the JSON Schema that documents it. Both come from the same object, so what is
 * validated is what the OpenAPI document says.
 */
export type JsonSchema = Record<string, unknown>;

/** Field errors as the 422 envelope carries them: `{ 'filter.sku': ['The filter.sku …'] }`. */
export type FieldErrors = Record<string, string[]>;

export interface InputField<T> {
  /** The documented shape of the value (`properties.<name>` of the request schema). */
  readonly schema: JsonSchema;
  /** Listed in the schema's `required`. */
  readonly required?: boolean;
  /** A query field read from `filter[<name>]`, reported as `filter.<name>`. */
  readonly inFilter?: boolean;
  /**
   * Reads the raw value (`undefined` when absent) of the field named `name` (its error key),
   * recording errors in `errors`; answers the typed value (a fallback when it failed).
   */
  read(raw: unknown, name: string, errors: FieldErrors): T;
}

export type FieldsOf = Record<string, InputField<unknown>>;

/** The typed values a set of fields reads. */
export type ValuesOf<F extends FieldsOf> = {
  [K in keyof F]: F[K] extends InputField<infer T> ? T : never;
};

export function addError(errors: FieldErrors, field: string, message: string): void {
  (errors[field] ??= []).push(message);
}

/** `is_active` → `is active`: Laravel's attribute name in a message. */
export const label = (field: string) => field.replace(/_/g, ' ');

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads `fields` from `source` in declaration order (the order of their messages). */
export function readFields<F extends FieldsOf>(
  fields: F,
  source: (key: string, field: InputField<unknown>) => unknown,
  errors: FieldErrors,
  nameOf: (key: string, field: InputField<unknown>) => string = (key) => key,
): ValuesOf<F> {
  const values: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields))
    values[key] = field.read(source(key, field), nameOf(key, field), errors);
  return values as ValuesOf<F>;
}

/** The object schema of `fields`; `propertyOf` names a property (`filter[x]` for a query filter). */
export function objectSchema(
  fields: FieldsOf,
  propertyOf: (key: string, field: InputField<unknown>) => string = (key) => key,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(fields)) {
    const name = propertyOf(key, field);
    properties[name] = field.schema;
    if (field.required) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/**
 * The same field, documented with more than its check says (`enum` of the scopes, `format:
 * email`): meaning the service checks, shown where the client reads the shape.
 */
export function documented<T>(field: InputField<T>, schema: JsonSchema): InputField<T> {
  return { ...field, schema: { ...field.schema, ...schema } };
}

/**
 * The same field, required: absent, it is "The <name> field is required." and the schema lists
 * it in `required` (a `null` the field reads stays a value: given, and cleared).
 */
export function required<T>(field: InputField<T>): InputField<T> {
  return {
    ...field,
    required: true,
    read(raw, name, errors) {
      if (raw === undefined) addError(errors, name, `The ${label(name)} field is required.`);
      return field.read(raw, name, errors);
    },
  };
}
