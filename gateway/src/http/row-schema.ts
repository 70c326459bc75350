import type { JsonSchema } from './input-field.js';

/**
 * A documented answer row, written compactly beside its presenter: `'integer'`, `'string'`,
 * `'boolean'`, `'date-time'`, `'object'`, `'string[]'`, with `?` for nullable, or a schema.
 */
type Kind = 'integer' | 'string' | 'boolean' | 'date-time' | 'object' | 'string[]';
export type RowSpec = Record<string, Kind | `${Kind}?` | JsonSchema>;

function schemaOf(kind: Kind, nullable: boolean): JsonSchema {
  const type = (name: string) => (nullable ? [name, 'null'] : name);
  switch (kind) {
    case 'date-time':
      return { type: type('string'), format: 'date-time' };
    case 'string[]':
      return { type: type('array'), items: { type: 'string' } };
    case 'object':
      return { type: type('object'), additionalProperties: true };
    default:
      return { type: type(kind) };
  }
}

/** Every field of a row is always present (presenters write `null`, never leave a key out). */
export function row(spec: RowSpec): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(spec).map(([name, kind]) => [
      name,
      typeof kind === 'string' ? schemaOf(kind.replace('?', '') as Kind, kind.endsWith('?')) : kind,
    ]),
  );
  return { type: 'object', required: Object.keys(spec), properties };
}

/** `{ data: <row> }`, the single-record answer. */
export const dataOf = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['data'],
  properties: { data: item },
});
