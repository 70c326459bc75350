import { controlCharactersMessage, hasControlCharacters } from '@inventory/rules';
import { isoDay, parseDay, parseMdY } from './dates.js';
import { addError, type InputField } from './input-field.js';
import { commaList, type QueryValue } from './query.js';

/**
 * The parameters of list queries, each with its check (the wording each list has always
 * answered with) and its schema. Filters (`filter: true`) are read from `filter[<name>]` and
 * reported as `filter.<name>`; unknown parameters are ignored, as Laravel does.
 */
const inFilter = <T>(field: Omit<InputField<T>, 'inFilter'>): InputField<T> => ({
  ...field,
  inFilter: true,
});

/**
 * `filter[name]`: one trimmed string of at most `max` characters, without control characters
 * (NUL and the like are never in what is searched: 422, as in a body); `''` when absent or bad.
 */
function search(options: { max: number; description?: string }): InputField<string> {
  return inFilter({
    schema: { type: 'string', maxLength: options.max, description: options.description },
    read(value, name, errors) {
      if (value === undefined) return '';
      if (typeof value !== 'string')
        return (addError(errors, name, `The ${name} field must be a string.`), '');
      const text = value.trim();
      if (hasControlCharacters(text))
        return (addError(errors, name, controlCharactersMessage(name)), '');
      if (text.length > options.max)
        return (
          addError(
            errors,
            name,
            `The ${name} field must not be greater than ${options.max} characters.`,
          ),
          ''
        );
      return text;
    },
  });
}

interface ListOptions {
  description: string;
  /** An item's value (e.g. a slug for a type name), or `undefined` when it is not allowed. */
  each?: (item: string) => string | undefined;
  /** The message for the items `each` refused. */
  rejected?: (bad: string[]) => string;
  /** The message when the value is not a list (an object); by default "must be a comma-separated list". */
  notList?: string;
  /** Caps on the list, with the one message that names both. */
  limit?: { maxItems: number; itemMax: number };
}

/** `filter[name]=a,b` (repeated keys combine): the distinct items; `[]` when absent or bad. */
function list(options: ListOptions): InputField<string[]> {
  return inFilter({
    schema: { type: 'string', description: options.description },
    read(value, name, errors) {
      const items = commaList(value as QueryValue);
      if (!items)
        return (
          addError(
            errors,
            name,
            options.notList ?? `The ${name} field must be a comma-separated list.`,
          ),
          []
        );
      const { limit, each, rejected } = options;
      if (
        limit &&
        (items.length > limit.maxItems || items.some((item) => item.length > limit.itemMax))
      )
        return (
          addError(
            errors,
            name,
            `The ${name} field must list at most ${limit.maxItems} values of at most ${limit.itemMax} characters.`,
          ),
          []
        );
      if (!each) return items;
      const mapped = items.map(each);
      const bad = items.filter((_, index) => mapped[index] === undefined);
      if (bad.length > 0) return (addError(errors, name, rejected!(bad)), []);
      return [...new Set(mapped as string[])];
    },
  });
}

/**
 * `filter[name]`: a day, `YYYY-MM-DD` in UTC; m/d/Y, and with `iso` also `YYYY-MM-DD`. The
 * route says which end of the day it means.
 */
function day(options: { iso?: boolean } = {}): InputField<string | undefined> {
  return inFilter({
    schema: {
      type: 'string',
      description: options.iso ? 'm/d/Y or YYYY-MM-DD' : 'm/d/Y',
    },
    read(value, name, errors) {
      if (value === undefined || value === '') return undefined;
      const text = typeof value === 'string' ? value.trim() : undefined;
      const parsed = text === undefined ? undefined : options.iso ? isoOf(text) : parseMdY(text);
      if (!parsed) addError(errors, name, `The ${name} field must match the format m/d/Y.`);
      return parsed;
    },
  });
}

const isoOf = (text: string) => {
  const parsed = parseDay(text, { iso: true });
  return parsed && isoDay(parsed);
};

/** `filter[name]=true|1|false|0`; absent is false. */
function flag(): InputField<boolean> {
  return inFilter({
    schema: { type: 'string', enum: ['true', 'false', '1', '0'] },
    read(value, name, errors) {
      if (value === undefined || value === '') return false;
      if (value === 'true' || value === '1') return true;
      if (value !== 'false' && value !== '0')
        addError(errors, name, `The ${name} field must be true or false.`);
      return false;
    },
  });
}

export interface SortKey {
  field: string;
  descending: boolean;
}

const descriptionOf = (allowed: readonly string[]) =>
  `One of ${allowed.join(', ')}; a leading minus for descending.`;

/**
 * `sort=a,-b` (repeated keys combine), each key one of `allowed`; `[]` (the service default) when
 * absent. `form` keeps each list's wording: `sort(s)` (activity, webhook log), `one-of`
 * (catalog), `single` (trackings: one key only).
 */
function sort(
  allowed: readonly string[],
  form: 'sort(s)' | 'one-of' | 'single',
): InputField<SortKey[]> {
  const known = (part: string) => allowed.includes(part.replace(/^-/, ''));
  const key = (part: string) => ({
    field: part.replace(/^-/, ''),
    descending: part.startsWith('-'),
  });
  return {
    schema: { type: 'string', description: descriptionOf(allowed) },
    read(value, name, errors) {
      if (value === undefined || value === '') return [];
      if (form === 'single') {
        const text = typeof value === 'string' ? value.trim() : undefined;
        if (text && known(text)) return [key(text)];
        addError(
          errors,
          name,
          `Requested sort \`${typeof value === 'string' ? value : '[array]'}\` is not allowed. Allowed sorts are \`${allowed.join(', ')}\`.`,
        );
        return [];
      }
      if (form === 'one-of') {
        const parts = typeof value === 'string' ? value.split(',') : undefined;
        const exact = (part: string) =>
          allowed.includes(part.startsWith('-') ? part.slice(1) : part);
        if (parts?.every(exact)) return parts.map(key);
        addError(
          errors,
          name,
          `The ${name} field must be one of ${allowed.join(', ')}, optionally with a leading minus.`,
        );
        return [];
      }
      const parts = commaList(value as QueryValue);
      if (!parts)
        return (addError(errors, name, `The ${name} field must be a comma-separated list.`), []);
      const unknown = parts.filter((part) => !known(part));
      if (unknown.length === 0) return parts.map(key);
      addError(
        errors,
        name,
        `Requested sort(s) \`${unknown.join(', ')}\` is not allowed. Allowed sort(s) are \`${allowed.join(', ')}\`.`,
      );
      return [];
    },
  };
}

export const query = { search, list, day, flag, sort };
