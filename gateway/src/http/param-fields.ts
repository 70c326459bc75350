import { notFoundBody } from './envelopes.js';
import { HttpError } from './http-error.js';
import type { InputField } from './input-field.js';

/**
 * Path parameters. A value that cannot name a record is the 404 the record would answer (never
 * a 422): the route's own "… not found." message, before anything else is read.
 */
function id(notFound: string, options: { maxDigits?: number } = {}): InputField<number> {
  const digits = new RegExp(`^[1-9]\\d{0,${(options.maxDigits ?? 15) - 1}}$`);
  return {
    // Documented as what is checked: the path's digits (the handler receives the number).
    schema: { type: 'string', pattern: digits.source },
    required: true,
    read(value) {
      const raw = typeof value === 'string' ? value : '';
      if (!digits.test(raw) || !Number.isSafeInteger(Number(raw)))
        throw new HttpError(404, notFoundBody(notFound));
      return Number(raw);
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID, lower-cased. */
function uuid(notFound: string): InputField<string> {
  return {
    schema: { type: 'string', format: 'uuid' },
    required: true,
    read(value) {
      if (typeof value !== 'string' || !UUID.test(value))
        throw new HttpError(404, notFoundBody(notFound));
      return value.toLowerCase();
    },
  };
}

/** A string of `pattern` (a credential or a key in the path). */
function matching(pattern: RegExp, notFound: string): InputField<string> {
  return {
    schema: { type: 'string', pattern: pattern.source },
    required: true,
    read(value) {
      if (typeof value !== 'string' || !pattern.test(value))
        throw new HttpError(404, notFoundBody(notFound));
      return value;
    },
  };
}

/** The rest of the path after a wildcard (`/app/*`): any string, the route resolves it. */
function rest(): InputField<string> {
  return {
    schema: { type: 'string' },
    required: true,
    read: (value) => (typeof value === 'string' ? value : ''),
  };
}

export const param = { id, uuid, matching, rest };
