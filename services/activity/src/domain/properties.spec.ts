import { describe, expect, it } from 'vitest';
import { parseProperties, withInstanceId } from './properties.js';

describe('parseProperties', () => {
  it('treats empty text as an empty object', () => {
    expect(parseProperties('')).toEqual({ ok: true, properties: {} });
    expect(parseProperties('  ')).toEqual({ ok: true, properties: {} });
  });

  it('keeps any JSON object, nested values included', () => {
    expect(parseProperties('{"changed_keys":["name"],"n":{"a":1}}')).toEqual({
      ok: true,
      properties: { changed_keys: ['name'], n: { a: 1 } },
    });
  });

  it.each(['[1]', '"text"', '3', 'null', '{oops'])('refuses %s', (text) => {
    expect(parseProperties(text).ok).toBe(false);
  });
});

describe('withInstanceId', () => {
  it('adds the instance id, overriding one in the properties', () => {
    expect(withInstanceId({ a: 1, integration_instance_id: 3 }, 9)).toEqual({
      a: 1,
      integration_instance_id: 9,
    });
  });

  it('leaves properties alone without an id', () => {
    const properties = { integration_instance_id: 3 };
    expect(withInstanceId(properties, undefined)).toBe(properties);
    expect(withInstanceId(properties, 0)).toBe(properties);
  });
});
