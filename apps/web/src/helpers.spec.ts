import { describe, expect, it } from 'vitest';
import { ApiError, withQuery } from './api.js';
import { errorFor } from './components/field.js';
import { apiDateToInput, inputDateToApi } from './dates.js';
import { fieldsNamed, messagesFor } from './messages.js';
import { match } from './router.js';
import { isElevatedScope, SCOPES } from '@inventory/access';
import { scopesByResource } from './pages/tokens/scopes.js';

describe('match (client routes under /app)', () => {
  it('captures params, ignores a trailing slash, refuses other shapes', () => {
    expect(match('/settings/developer/tokens/:id', '/settings/developer/tokens/12')).toEqual({
      id: '12',
    });
    expect(match('/webhooks/:id', '/webhooks/7/')).toEqual({ id: '7' });
    expect(match('/webhooks/:id', '/webhooks')).toBeNull();
    expect(match('/webhooks/:id', '/webhooks/7/deliveries')).toBeNull();
    expect(match('/webhooks', '/tokens')).toBeNull();
    expect(match('/webhooks/:id', '/webhooks/a%20b')).toEqual({ id: 'a b' });
  });
});

describe('withQuery (the API query, also the page URL)', () => {
  it('keeps bracketed filter names, drops empty values, encodes the rest', () => {
    expect(
      withQuery('/api/x', { 'filter[status]': '200,5xx', page: 2, sort: '', per_page: undefined }),
    ).toBe('/api/x?filter%5Bstatus%5D=200%2C5xx&page=2');
    expect(withQuery('/api/x', {})).toBe('/api/x');
  });
});

describe('ApiError (a refused request)', () => {
  it("reads field messages from a 422 only: a 404's errors have another shape", () => {
    const invalid = new ApiError(422, {
      message: 'The name field is required.',
      errors: { name: ['The name field is required.'] },
    });
    expect(invalid.message).toBe('The name field is required.');
    expect(invalid.fieldErrors).toEqual({ name: ['The name field is required.'] });
    const notFound = new ApiError(404, {
      message: 'Record not found.',
      status: 'failure',
      errors: { url: [{ message: 'Record not found.', code: 'NotFound', data: [] }] },
    });
    expect(notFound.fieldErrors).toEqual({});
    expect(new ApiError(502, null).message).toBe('Request failed (502).');
  });
});

describe('errorFor (validation message next to its field)', () => {
  it('takes the field first, then its nested keys', () => {
    const errors = { name: ['Name is required.', 'second'], 'ip_allowlist.1': ['Bad CIDR.'] };
    expect(errorFor(errors, 'name')).toBe('Name is required.');
    expect(errorFor(errors, 'ip_allowlist')).toBe('Bad CIDR.');
    expect(errorFor(errors, 'scopes')).toBeUndefined();
    expect(errorFor(undefined, 'name')).toBeUndefined();
  });
});

describe('date filters', () => {
  it('converts between the API m/d/Y and the input YYYY-MM-DD, and rejects other text', () => {
    expect(apiDateToInput('3/7/2026')).toBe('2026-03-07');
    expect(apiDateToInput('12/31/2026')).toBe('2026-12-31');
    expect(apiDateToInput('13/45/2026')).toBe('');
    expect(apiDateToInput('2/30/2026')).toBe('');
    expect(inputDateToApi('2026-03-07')).toBe('03/07/2026');
    expect(inputDateToApi('')).toBe('');
    expect(apiDateToInput('2026-03-07')).toBe('');
    expect(inputDateToApi('3/7/2026')).toBe('');
  });
});

describe('scopes', () => {
  it('groups every scope of the specification by resource, in order', () => {
    const groups = scopesByResource();
    expect(groups.flatMap(([, scopes]) => scopes)).toEqual([...SCOPES]);
    expect(groups.find(([resource]) => resource === 'purchase-orders')?.[1]).toEqual([
      'purchase-orders:read',
      'purchase-orders:write',
    ]);
    expect(SCOPES).toHaveLength(16);
  });

  it('treats :write and :manage as needing the password again', () => {
    expect(isElevatedScope('orders:write')).toBe(true);
    expect(isElevatedScope('webhooks:manage')).toBe(true);
    expect(isElevatedScope('orders:read')).toBe(false);
  });
});

describe('messagesFor (an API message in words for the field it is shown against)', () => {
  it('drops the field name, names a list item by its line, keeps unknown wording', () => {
    const errors = {
      name: ['The name field is required.'],
      rate_limit_per_minute: ['The rate limit per minute field must be between 1 and 1000.'],
      'ip_allowlist.1': ['The ip_allowlist.1 field must be a valid IPv4 or IPv6 CIDR range.'],
      'scopes.0': ['The selected scopes.0 is invalid: "x" is not a known scope.'],
      other: ['Something else.'],
    };
    expect(messagesFor(errors, 'name', { label: 'Name' })).toEqual(['Name is required.']);
    expect(messagesFor(errors, 'rate_limit_per_minute')).toEqual(['Must be between 1 and 1000.']);
    expect(messagesFor(errors, 'ip_allowlist', { item: (i) => `Line ${i + 1}` })).toEqual([
      'Line 2: must be a valid IPv4 or IPv6 CIDR range.',
    ]);
    expect(messagesFor(errors, 'scopes')).toEqual(['Item 1: "x" is not a known scope.']);
    expect(messagesFor(errors, 'other')).toEqual(['Something else.']);
    expect(fieldsNamed(errors)).toEqual([
      'name',
      'rate_limit_per_minute',
      'ip_allowlist',
      'scopes',
      'other',
    ]);
  });
});
