import { SCOPES } from '@inventory/access';
import { field } from '../../http/body-fields.js';
import { addError, documented, type InputField } from '../../http/input-field.js';
import { FLAT_PAGE } from '../../http/page-fields.js';
import { param } from '../../http/param-fields.js';
import { query } from '../../http/query-fields.js';
import { body } from '../../http/route-input.js';

/**
 * What the token routes read. Shapes only: known scopes, CIDRs and bounds are identity's rules,
 * answered in the same field-error form.
 */
export const TOKEN = {
  id: param.id('Personal access token not found.', { maxDigits: 16 }),
};

const scopes = () =>
  documented(field.stringArray({ maxItems: 100, itemMax: 255 }), {
    items: { type: 'string', enum: SCOPES },
  });
const allowlist = () =>
  documented(field.stringArray({ maxItems: 100, itemMax: 255 }), {
    items: { type: 'string', maxLength: 255, description: 'IPv4 or IPv6 CIDR' },
  });
const rateLimit = () =>
  documented(field.integer({ int32: true }), {
    description: 'Requests per minute, 1 to 1000; null uses the platform limit',
  });

export const CREATE_TOKEN_BODY = body({
  name: field.string({ required: true, max: 255 }),
  scopes: scopes(),
  expires_at: field.date(),
  ip_allowlist: allowlist(),
  rate_limit_per_minute: rateLimit(),
});

/** Each field is changed only when given; `null` clears a list or the token's own limit. */
export const UPDATE_TOKEN_BODY = body({
  name: field.string({ required: 'if-present', max: 255 }),
  scopes: scopes(),
  ip_allowlist: allowlist(),
  rate_limit_per_minute: rateLimit(),
  password: field.string({ max: 1024 }),
  two_factor_code: field.string({ max: 64 }),
});

/**
 * A new secret, a new expiry (left out: never expires, as on creation), and optionally the
 * edits PATCH takes, with the password when they add a :write or :manage scope.
 */
export const REGENERATE_TOKEN_BODY = body({
  expires_at: field.date(),
  name: field.string({ required: 'if-present', max: 255 }),
  scopes: scopes(),
  ip_allowlist: allowlist(),
  rate_limit_per_minute: rateLimit(),
  password: field.string({ max: 1024 }),
  two_factor_code: field.string({ max: 64 }),
});

export interface StatusFilter {
  statuses: number[];
  classes: number[];
}

/** `filter[status]=200,404,5xx`: exact codes and classes. */
function statusFilter(): InputField<StatusFilter> {
  return {
    schema: { type: 'string', description: 'comma-separated codes or classes, e.g. 200,404,5xx' },
    inFilter: true,
    read(value, name, errors) {
      const filter: StatusFilter = { statuses: [], classes: [] };
      if (value === undefined || value === '') return filter;
      for (const part of String(value)
        .split(',')
        .map((item) => item.trim().toLowerCase())) {
        if (/^[1-5]\d\d$/.test(part)) filter.statuses.push(Number(part));
        else if (/^[1-5]xx$/.test(part)) filter.classes.push(Number(part[0]));
        else {
          addError(
            errors,
            name,
            `The selected filter.status is invalid: ${JSON.stringify(part.slice(0, 20))}.`,
          );
          return { statuses: [], classes: [] };
        }
      }
      return filter;
    },
  };
}

export const TOKEN_REQUESTS_QUERY = {
  ...FLAT_PAGE,
  status: statusFilter(),
  date_from: query.day({ iso: true }),
  date_to: documented(query.day({ iso: true }), { description: 'm/d/Y or YYYY-MM-DD (inclusive)' }),
};

/** `days`: 1 to 90, 30 when absent. */
function days(): InputField<number> {
  return {
    schema: { type: 'integer', minimum: 1, maximum: 90, default: 30 },
    read(value, name, errors) {
      const count = value === undefined ? 30 : Number(value);
      if (Number.isInteger(count) && count >= 1 && count <= 90) return count;
      addError(errors, name, 'The days field must be between 1 and 90.');
      return 30;
    },
  };
}

export const TOKEN_USAGE_QUERY = { days: days() };
