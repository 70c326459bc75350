import { describe, expect, it } from 'vitest';
import { field } from './body-fields.js';
import type { FieldErrors, InputField } from './input-field.js';

/** Reads one value as the field named `name`: its value and the errors it recorded. */
function read<T>(input: InputField<T>, value: unknown, name = 'the_field') {
  const errors: FieldErrors = {};
  return { value: input.read(value, name, errors), errors };
}
const errorsOf = <T>(input: InputField<T>, value: unknown, name = 'the_field') =>
  read(input, value, name).errors;

describe('body fields: each rule answers with its exact message', () => {
  it('string: required, type, length, NUL', () => {
    const required = field.string({ required: true, max: 5 });
    for (const empty of [undefined, null, ''])
      expect(errorsOf(required, empty, 'name')).toEqual({ name: ['The name field is required.'] });
    expect(errorsOf(required, 7, 'name')).toEqual({ name: ['The name field must be a string.'] });
    expect(errorsOf(required, 'abcdef', 'api_key')).toEqual({
      api_key: ['The api key field must not be greater than 5 characters.'],
    });
    expect(read(required, 'abc')).toEqual({ value: 'abc', errors: {} });
    expect(errorsOf(field.string({ refuseControls: true }), 'a\u0000b', 'name')).toEqual({
      name: ['The name field must not contain control characters.'],
    });
  });

  it('string: how null reads, and required only when present', () => {
    expect(read(field.string(), null)).toEqual({ value: undefined, errors: {} });
    expect(read(field.string({ nulls: 'empty' }), null)).toEqual({ value: '', errors: {} });
    expect(errorsOf(field.string({ nulls: 'invalid' }), null, 'url')).toEqual({
      url: ['The url field must be a string.'],
    });
    const ifPresent = field.string({ required: 'if-present' });
    expect(read(ifPresent, undefined)).toEqual({ value: undefined, errors: {} });
    expect(errorsOf(ifPresent, '', 'name')).toEqual({ name: ['The name field is required.'] });
    expect(read(field.nullableString(), null)).toEqual({ value: null, errors: {} });
    expect(errorsOf(field.nullableString(), 3, 'description')).toEqual({
      description: ['The description field must be a string.'],
    });
  });

  it('boolean', () => {
    expect(errorsOf(field.boolean(), 'yes', 'is_active')).toEqual({
      is_active: ['The is active field must be true or false.'],
    });
    expect(read(field.boolean(), false)).toEqual({ value: false, errors: {} });
  });

  it('integer: safe integers, or int32 with null to clear', () => {
    for (const bad of [1.5, '3', null])
      expect(errorsOf(field.integer(), bad, 'quota_alert_threshold')).toEqual({
        quota_alert_threshold: ['The quota alert threshold field must be an integer.'],
      });
    const int32 = field.integer({ int32: true });
    expect(read(int32, null)).toEqual({ value: null, errors: {} });
    expect(errorsOf(int32, 2_147_483_648, 'rate_limit_per_minute')).toEqual({
      rate_limit_per_minute: [
        'The rate limit per minute field must not be greater than 2147483647.',
      ],
    });
  });

  it('string arrays: type, count, each item (or the first, the subscriptions form)', () => {
    const scopes = field.stringArray({ maxItems: 2, itemMax: 3 });
    expect(errorsOf(scopes, 'x', 'ip_allowlist')).toEqual({
      ip_allowlist: ['The ip allowlist field must be an array.'],
    });
    expect(errorsOf(scopes, ['a', 'b', 'c'], 'scopes')).toEqual({
      scopes: ['The scopes field must not have more than 2 items.'],
    });
    expect(errorsOf(scopes, [1, 'abcd'], 'scopes')).toEqual({
      'scopes.0': ['The scopes.0 field must be a string.'],
      'scopes.1': ['The scopes.1 field must not be greater than 3 characters.'],
    });
    expect(read(scopes, null)).toEqual({ value: null, errors: {} });
    const events = field.stringArray({ maxItems: 5, nulls: 'invalid', itemErrors: 'first' });
    expect(errorsOf(events, ['a', 'b', 'c', 4, 5], 'events')).toEqual({
      events: ['The events.3 field must be a string.'],
    });
    expect(errorsOf(events, Array(6).fill('a'), 'events')).toEqual({
      events: ['The events field may not have more than 5 items.'],
    });
    expect(errorsOf(events, null, 'events')).toEqual({
      events: ['The events field must be an array.'],
    });
  });

  it('date, object and flags', () => {
    for (const bad of [
      'nope',
      5,
      'x'.repeat(65),
      '2030-01-01T00:00:00Z\u0000',
      '2030-01-01',
      'Jan 1 2030',
    ])
      expect(errorsOf(field.date(), bad, 'expires_at')).toEqual({
        expires_at: ['The expires at field must be a valid date.'],
      });
    expect(read(field.date(), '2030-01-01T00:00:00Z').value).toEqual(
      new Date('2030-01-01T00:00:00Z'),
    );
    const flags = field.flags(['sales_orders', 'rmas'] as const);
    expect(errorsOf(flags, [], 'auto_track')).toEqual({
      auto_track: ['The auto track field must be an object.'],
    });
    expect(read(flags, { sales_orders: 'yes', rmas: false, other: 1 }, 'auto_track')).toEqual({
      value: { rmas: false },
      errors: {
        'auto_track.sales_orders': ['The auto track.sales orders field must be true or false.'],
      },
    });
  });
});
