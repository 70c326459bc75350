import { validationBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';
import { parsePageRequest, type PageRequest } from '../../http/pagination.js';

/** A sort key as the catalog service takes it: `-name` is `{ field: 'name', descending: true }`. */
export interface SortKey {
  field: string;
  descending: boolean;
}

type QueryValue = unknown;

/**
 * Reads the parameters of a general list endpoint and collects Laravel-style field errors
 * (`{ 'filter.sku': [...] }`); `done()` throws the 422 when any check failed.
 */
export class ListParams {
  private readonly errors: Record<string, string[]> = {};

  constructor(private readonly query: Record<string, unknown>) {}

  /**
   * `filter[x]` whichever way the query string was parsed: Fastify's default parser keeps the
   * flat key `'filter[x]'`; a qs-style parser nests `{ filter: { x } }`.
   */
  private filter(name: string): QueryValue {
    const flat = this.query[`filter[${name}]`];
    if (flat !== undefined) return flat;
    const nested = this.query.filter;
    if (nested && typeof nested === 'object' && !Array.isArray(nested))
      return (nested as Record<string, unknown>)[name];
    return undefined;
  }

  private fail(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  /** `filter[name]` as one trimmed string of at most `max` characters ('' when absent). */
  search(name: string, max = 255): string {
    const value = this.filter(name);
    if (value === undefined) return '';
    if (typeof value !== 'string') {
      this.fail(`filter.${name}`, `The filter.${name} field must be a string.`);
      return '';
    }
    const text = value.trim();
    if (text.length > max) {
      this.fail(
        `filter.${name}`,
        `The filter.${name} field must not be greater than ${max} characters.`,
      );
      return '';
    }
    return text;
  }

  /** `filter[name]` as a comma list (repeated keys combine), distinct, each at most `itemMax` long. */
  commaList(name: string, options: { maxItems: number; itemMax: number }): string[] {
    const value = this.filter(name);
    if (value === undefined) return [];
    const parts =
      typeof value === 'string'
        ? [value]
        : Array.isArray(value) && value.every((item) => typeof item === 'string')
          ? (value as string[])
          : undefined;
    if (!parts) {
      this.fail(`filter.${name}`, `The filter.${name} field must be a comma-separated list.`);
      return [];
    }
    const items = [
      ...new Set(
        parts
          .flatMap((part) => part.split(','))
          .map((item) => item.trim())
          .filter((item) => item !== ''),
      ),
    ];
    if (items.length > options.maxItems || items.some((item) => item.length > options.itemMax)) {
      this.fail(
        `filter.${name}`,
        `The filter.${name} field must list at most ${options.maxItems} values of at most ${options.itemMax} characters.`,
      );
      return [];
    }
    return items;
  }

  /** `sort=a,-b`: each key one of `allowed`, a leading minus for descending; absent = service default. */
  sort(allowed: readonly string[]): SortKey[] {
    const value = this.query.sort;
    if (value === undefined || value === '') return [];
    const invalid = () =>
      this.fail(
        'sort',
        `The sort field must be one of ${allowed.join(', ')}, optionally with a leading minus.`,
      );
    if (typeof value !== 'string') {
      invalid();
      return [];
    }
    const keys: SortKey[] = [];
    for (const part of value.split(',')) {
      const descending = part.startsWith('-');
      const field = descending ? part.slice(1) : part;
      if (!allowed.includes(field)) {
        invalid();
        return [];
      }
      keys.push({ field, descending });
    }
    return keys;
  }

  /** `page` / `per_page` (the flat envelope's rules), their errors merged with the others. */
  page(): PageRequest {
    try {
      return parsePageRequest(this.query);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const errors = (error.body.errors ?? {}) as Record<string, string[]>;
      for (const [field, messages] of Object.entries(errors))
        for (const message of messages) this.fail(field, message);
      return { page: 1, perPage: 10 };
    }
  }

  done(): void {
    if (Object.keys(this.errors).length > 0) throw new HttpError(422, validationBody(this.errors));
  }
}
