import { controlCharactersMessage, hasControlCharacters } from '@inventory/rules';
import { addError, isObject, label, type InputField } from './input-field.js';

/**
 * The fields of a JSON body, each with its check (Laravel's wording, as the specification writes
 * it) and its schema. Only shapes are checked here; meaning (known scopes, CIDRs, bounds, URL
 * safety) is the service's, which answers in the same field-error form.
 *
 * How `null` reads differs between the API's bodies, and each route keeps its own:
 * - `absent` (default): `null` and `''` read as not given ("required" when required);
 * - `invalid`: `null` is the wrong type ("must be a string");
 * - `null`: `null` is a value of its own (clear the field), handed to the route as `null`;
 * - `empty`: `null` reads as `''`, so the service's "required" answers for it.
 */
export type NullReading = 'absent' | 'invalid' | 'null' | 'empty';

const INT32_MAX = 2_147_483_647;

interface StringOptions {
  /** `if-present`: may be left out, but when given it must not be empty. */
  required?: boolean | 'if-present';
  max?: number;
  nulls?: Exclude<NullReading, 'null'>;
  /** Control characters never belong in a name or key (the rule is `@inventory/rules`'). */
  refuseControls?: boolean;
}

function string(options: StringOptions = {}): InputField<string | undefined> {
  const nulls = options.nulls ?? 'absent';
  return {
    schema: { type: 'string', ...(options.max !== undefined ? { maxLength: options.max } : {}) },
    required: options.required === true,
    read(value, name, errors) {
      const empty = value === undefined || (nulls === 'absent' && (value === null || value === ''));
      if (empty) {
        const required =
          options.required === true || (options.required === 'if-present' && value !== undefined);
        if (required) addError(errors, name, `The ${label(name)} field is required.`);
        return undefined;
      }
      if (value === null && nulls === 'empty') return '';
      if (typeof value !== 'string')
        return void addError(errors, name, `The ${label(name)} field must be a string.`);
      if (options.refuseControls && hasControlCharacters(value))
        return void addError(errors, name, controlCharactersMessage(label(name)));
      if (options.max !== undefined && value.length > options.max)
        return void addError(
          errors,
          name,
          `The ${label(name)} field must not be greater than ${options.max} characters.`,
        );
      return value;
    },
  };
}

/** A string, or `null` to clear it. */
function nullableString(): InputField<string | null | undefined> {
  const text = string({ nulls: 'invalid' });
  return {
    schema: { type: ['string', 'null'] },
    read: (value, name, errors) => (value === null ? null : text.read(value, name, errors)),
  };
}

function boolean(): InputField<boolean | undefined> {
  return {
    schema: { type: 'boolean' },
    read(value, name, errors) {
      if (value === undefined) return undefined;
      if (typeof value !== 'boolean')
        return void addError(errors, name, `The ${label(name)} field must be true or false.`);
      return value;
    },
  };
}

/**
 * An integer. `int32`: a value past ±2147483647 is refused (it would overflow the proto) and
 * `null` reads as `null` (clear); otherwise any safe integer, and `null` is not one.
 */
function integer(options: { int32?: boolean } = {}): InputField<number | null | undefined> {
  return {
    schema: options.int32
      ? { type: ['integer', 'null'], minimum: -INT32_MAX, maximum: INT32_MAX }
      : { type: 'integer' },
    read(value, name, errors) {
      if (value === undefined) return undefined;
      if (value === null && options.int32) return null;
      const whole = options.int32 ? Number.isInteger(value) : Number.isSafeInteger(value);
      if (typeof value !== 'number' || !whole)
        return void addError(errors, name, `The ${label(name)} field must be an integer.`);
      if (options.int32 && Math.abs(value) > INT32_MAX)
        return void addError(
          errors,
          name,
          `The ${label(name)} field must not be greater than ${INT32_MAX}.`,
        );
      return value;
    },
  };
}

interface StringArrayOptions {
  maxItems: number;
  /** Each item's longest length; its message names the item (`scopes.2`). */
  itemMax?: number;
  /** `invalid`: `null` is not an array; `null` (default): `null` reads as `null` (clear). */
  nulls?: 'invalid' | 'null';
  /**
   * `each` (default): every bad item reported under its own key (`scopes.2`); `first`: only the
   * first, under the array's key (the webhook subscriptions' form). `may not` is their wording.
   */
  itemErrors?: 'each' | 'first';
}

function stringArray(options: StringArrayOptions): InputField<string[] | null | undefined> {
  const first = options.itemErrors === 'first';
  const items: Record<string, unknown> = { type: 'string' };
  if (options.itemMax !== undefined) items.maxLength = options.itemMax;
  return {
    schema: {
      type: options.nulls === 'invalid' ? 'array' : ['array', 'null'],
      items,
      maxItems: options.maxItems,
    },
    read(value, name, errors) {
      if (value === undefined) return undefined;
      if (value === null && options.nulls !== 'invalid') return null;
      if (!Array.isArray(value))
        return void addError(errors, name, `The ${label(name)} field must be an array.`);
      if (value.length > options.maxItems)
        return void addError(
          errors,
          name,
          `The ${label(name)} field ${first ? 'may' : 'must'} not have more than ${options.maxItems} items.`,
        );
      let ok = true;
      for (const [index, item] of value.entries()) {
        const at = `${name}.${index}`;
        if (typeof item !== 'string') {
          ok = false;
          addError(errors, first ? name : at, `The ${at} field must be a string.`);
          if (first) break;
        } else if (options.itemMax !== undefined && item.length > options.itemMax) {
          ok = false;
          addError(
            errors,
            at,
            `The ${at} field must not be greater than ${options.itemMax} characters.`,
          );
        }
      }
      return ok ? (value as string[]) : undefined;
    },
  };
}

/** ISO 8601 date-time with a zone, as `format: date-time` says (`Date` alone also reads looser
 * text, a trailing NUL byte included). */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A date-time string (ISO 8601 with a zone); `null` and `''` read as not given. */
function date(): InputField<Date | undefined> {
  return {
    schema: { type: 'string', format: 'date-time' },
    read(value, name, errors) {
      if (value === undefined || value === null || value === '') return undefined;
      const parsed =
        typeof value === 'string' && value.length <= 64 && ISO_DATE_TIME.test(value)
          ? new Date(value)
          : undefined;
      if (!parsed || Number.isNaN(parsed.getTime()))
        return void addError(errors, name, `The ${label(name)} field must be a valid date.`);
      return parsed;
    },
  };
}

/** A JSON object; its entries are the caller's to read. */
function object(
  schema: Record<string, unknown> = {},
): InputField<Record<string, unknown> | undefined> {
  return {
    schema: { type: 'object', ...schema },
    read(value, name, errors) {
      if (value === undefined) return undefined;
      if (!isObject(value))
        return void addError(errors, name, `The ${label(name)} field must be an object.`);
      return value;
    },
  };
}

/** An object of named switches (`{ "sales_orders": true }`); unknown names are ignored. */
function flags<K extends string>(
  keys: readonly K[],
): InputField<Partial<Record<K, boolean>> | undefined> {
  const holder = object();
  const flag = boolean();
  return {
    schema: {
      type: 'object',
      properties: Object.fromEntries(keys.map((key) => [key, flag.schema])),
    },
    read(value, name, errors) {
      const entries = holder.read(value, name, errors);
      if (!entries) return undefined;
      const out: Partial<Record<K, boolean>> = {};
      for (const key of keys) {
        const given = flag.read(entries[key], `${name}.${key}`, errors);
        if (given !== undefined) out[key] = given;
      }
      return out;
    },
  };
}

export const field = { string, nullableString, boolean, integer, stringArray, date, object, flags };
