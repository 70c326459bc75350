import { addError, type InputField } from './input-field.js';
import { INT32_MAX, pageNumber } from './query.js';
import { DEFAULT_PER_PAGE, MAX_PAGE, MAX_PER_PAGE } from './pagination.js';

/**
 * `page` and `per_page`, each list with the wording it has always answered with. Every form
 * refuses rather than coerces: `1e9`, `1.5`, `-1`, `0x10`, a repeated parameter.
 */
const integerSchema = (fallback: number, max: number) => ({
  type: 'integer',
  minimum: 1,
  maximum: max,
  default: fallback,
});

/** "must be an integer" / "must be at least 1" / "must not be greater than N" (`http/query.ts`). */
function counted(options: {
  fallback: number;
  max: number;
  maxDigits?: number;
}): InputField<number> {
  return {
    schema: integerSchema(options.fallback, options.max),
    read: (value, name, errors) =>
      pageNumber(value, name, options.fallback, options.max, errors, options.maxDigits),
  };
}

/** The general lists' "must be an integer between 1 and N" (spec "Pagination envelopes" rule 1). */
function between(options: { fallback: number; max: number }): InputField<number> {
  return {
    schema: integerSchema(options.fallback, options.max),
    read(value, name, errors) {
      if (value === undefined || value === '') return options.fallback;
      const number = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
      if (!(number >= 1 && number <= options.max)) {
        addError(
          errors,
          name,
          `The ${name} field must be an integer between 1 and ${options.max}.`,
        );
        return options.fallback;
      }
      return number;
    },
  };
}

/** The webhook subscriptions' "The per page must be a positive integer." / "may not be greater than N." */
function positive(options: { fallback: number; max: number }): InputField<number> {
  return {
    schema: integerSchema(options.fallback, options.max),
    read(value, name, errors) {
      if (value === undefined || value === '') return options.fallback;
      const what = name.replace('_', ' ');
      if (typeof value !== 'string' || !/^\d{1,9}$/.test(value) || Number(value) < 1)
        return (
          addError(errors, name, `The ${what} must be a positive integer.`),
          options.fallback
        );
      if (Number(value) > options.max)
        return (
          addError(errors, name, `The ${what} may not be greater than ${options.max}.`),
          options.fallback
        );
      return Number(value);
    },
  };
}

/** The flat envelope's `page` and `per_page` (general lists: catalog, tokens). */
export const FLAT_PAGE = {
  page: between({ fallback: 1, max: MAX_PAGE }),
  per_page: between({ fallback: DEFAULT_PER_PAGE, max: MAX_PER_PAGE }),
};

export const page = { counted, between, positive, INT32_MAX };
