import { validationBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';

const label = (field: string) => field.replace(/_/g, ' ');

/**
 * Shape checks for JSON bodies with Laravel's wording. Business rules
 * (known scopes, CIDRs, bounds) are identity's, which answers with the same
 * field-error shape; unknown fields are ignored, as Laravel does.
 */
export class BodyReader {
  private readonly errors: Record<string, string[]> = {};
  private readonly body: Record<string, unknown>;

  constructor(raw: unknown) {
    this.body =
      raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  }

  has(field: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.body, field);
  }

  private fail(field: string, message: string): undefined {
    (this.errors[field] ??= []).push(message);
    return undefined;
  }

  string(field: string, options: { required?: boolean; max?: number } = {}): string | undefined {
    const value = this.body[field];
    if (value === undefined || value === null || value === '') {
      return options.required
        ? this.fail(field, `The ${label(field)} field is required.`)
        : undefined;
    }
    if (typeof value !== 'string')
      return this.fail(field, `The ${label(field)} field must be a string.`);
    if (options.max !== undefined && value.length > options.max)
      return this.fail(
        field,
        `The ${label(field)} field must not be greater than ${options.max} characters.`,
      );
    return value;
  }

  stringArray(field: string, options: { maxItems?: number } = {}): string[] | undefined {
    const value = this.body[field];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value))
      return this.fail(field, `The ${label(field)} field must be an array.`);
    if (options.maxItems !== undefined && value.length > options.maxItems)
      return this.fail(
        field,
        `The ${label(field)} field must not have more than ${options.maxItems} items.`,
      );
    let ok = true;
    value.forEach((item, index) => {
      if (typeof item !== 'string') {
        ok = false;
        this.fail(`${field}.${index}`, `The ${field}.${index} field must be a string.`);
      } else if (item.length > 255) {
        ok = false;
        this.fail(
          `${field}.${index}`,
          `The ${field}.${index} field must not be greater than 255 characters.`,
        );
      }
    });
    return ok ? (value as string[]) : undefined;
  }

  integer(field: string): number | undefined {
    const value = this.body[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value))
      return this.fail(field, `The ${label(field)} field must be an integer.`);
    if (Math.abs(value) > 2_147_483_647)
      return this.fail(field, `The ${label(field)} field must not be greater than 2147483647.`);
    return value;
  }

  date(field: string): Date | undefined {
    const value = this.body[field];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string' || value.length > 64)
      return this.fail(field, `The ${label(field)} field must be a valid date.`);
    const parsed = new Date(value);
    if (Number.isNaN(parsed.getTime()))
      return this.fail(field, `The ${label(field)} field must be a valid date.`);
    return parsed;
  }

  /** Throws the 422 envelope when any check failed. */
  done(): void {
    if (Object.keys(this.errors).length > 0) throw new HttpError(422, validationBody(this.errors));
  }
}

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
