import { describe, expect, it } from 'vitest';
import { HttpError } from './http-error.js';
import { FLAT_PAGE } from './page-fields.js';
import { readQuery, refuseInvalid } from './route-input.js';

/** The general lists' `page` and `per_page`, read as `handle()` reads a declared query. */
function parsePageRequest(query: Record<string, unknown>) {
  const { values, errors } = readQuery(FLAT_PAGE, query);
  refuseInvalid(errors);
  return { page: values.page, perPage: values.per_page };
}

describe('parsePageRequest', () => {
  it('defaults to page 1 and 10 per page', () => {
    expect(parsePageRequest({})).toEqual({ page: 1, perPage: 10 });
    expect(parsePageRequest({ page: '', per_page: '' })).toEqual({ page: 1, perPage: 10 });
    expect(parsePageRequest({ page: '3', per_page: '25' })).toEqual({ page: 3, perPage: 25 });
    expect(parsePageRequest({ page: '1000000', per_page: '1000' })).toEqual({
      page: 1_000_000,
      perPage: 1000,
    });
  });

  it.each([
    ['page', '0'],
    ['page', '-1'],
    ['page', '1.5'],
    ['page', '1e9'],
    ['page', '1000000000'],
    ['page', '1000001'],
    ['page', 'abc'],
    ['page', ' 2'],
    ['page', ['1', '2']],
    ['per_page', '0'],
    ['per_page', '1001'],
    ['per_page', '0x10'],
    ['per_page', '9'.repeat(5000)],
  ])('answers 422 for %s=%j', (name, value) => {
    let caught: unknown;
    try {
      parsePageRequest({ [name]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HttpError);
    const error = caught as HttpError;
    expect(error.statusCode).toBe(422);
    expect(Object.keys(error.body.errors as object)).toEqual([name]);
    expect(error.body.message).toMatch(new RegExp(`^The ${name} field must be an integer`));
  });
});
