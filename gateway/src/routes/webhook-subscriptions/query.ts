import {
  WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE,
  WEBHOOK_SUBSCRIPTIONS_MAX_PER_PAGE,
} from '@inventory/rules';
import { validationBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';

type Query = Record<string, unknown>;

function positiveInt(
  query: Query,
  key: string,
  fallback: number,
  max: number,
  errors: Record<string, string[]>,
) {
  const raw = query[key];
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    errors[key] = [`The ${key.replace('_', ' ')} must be a positive integer.`];
    return fallback;
  }
  if (Number(raw) > max) {
    errors[key] = [`The ${key.replace('_', ' ')} may not be greater than ${max}.`];
    return fallback;
  }
  return Number(raw);
}

function optionalString(query: Query, key: string, errors: Record<string, string[]>) {
  const raw = query[key];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || raw.length > 100) {
    errors[key] = [`The ${key} must be a string of at most 100 characters.`];
    return undefined;
  }
  return raw;
}

/** `page` and `per_page` (spec: 1-based, default 10); 422 for anything that is not one. */
export function readPaging(rawQuery: unknown): { page: number; perPage: number } {
  const query = (rawQuery ?? {}) as Query;
  const errors: Record<string, string[]> = {};
  const page = positiveInt(query, 'page', 1, 1_000_000_000, errors);
  const perPage = positiveInt(
    query,
    'per_page',
    WEBHOOK_SUBSCRIPTIONS_DEFAULT_PER_PAGE,
    WEBHOOK_SUBSCRIPTIONS_MAX_PER_PAGE,
    errors,
  );
  if (Object.keys(errors).length > 0) throw new HttpError(422, validationBody(errors));
  return { page, perPage };
}

/** The delivery log's filters: `status` and `event`. */
export function readDeliveryFilters(rawQuery: unknown): { status?: string; event?: string } {
  const query = (rawQuery ?? {}) as Query;
  const errors: Record<string, string[]> = {};
  const filters = {
    status: optionalString(query, 'status', errors),
    event: optionalString(query, 'event', errors),
  };
  if (Object.keys(errors).length > 0) throw new HttpError(422, validationBody(errors));
  return filters;
}
