import { validationBody } from './envelopes.js';
import { HttpError } from './http-error.js';

const label = (field: string) => field.replace(/_/g, ' ');

/** `page` / `per_page` query values: positive integers, defaults 1 and 10. */
export function pageParams(query: Record<string, unknown>): { page: number; perPage: number } {
  const reader = (name: string, fallback: number, max: number) => {
    const raw = query[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (typeof raw !== 'string' || !Number.isInteger(value) || value < 1) {
      throw new HttpError(
        422,
        validationBody({ [name]: [`The ${label(name)} field must be an integer of at least 1.`] }),
      );
    }
    return Math.min(value, max);
  };
  return { page: reader('page', 1, 1_000_000), perPage: reader('per_page', 10, 1000) };
}

/** A path id: a positive integer, else the 404 envelope (as for an unknown record). */
export function pathId(raw: string): number | undefined {
  if (!/^[1-9]\d{0,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}
