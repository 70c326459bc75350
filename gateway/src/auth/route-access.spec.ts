import { describe, expect, it } from 'vitest';
import { requiredScope, ruleFor, type RouteRule } from './route-access.js';

describe('requiredScope (specification, Authentication rule 1)', () => {
  const products = { resource: 'products' } as const;

  it.each(['GET', 'HEAD', 'get', 'head'])('%s needs <resource>:read', (method) => {
    expect(requiredScope(products, method)).toBe('products:read');
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'put', 'patch'])(
    '%s needs <resource>:write, never :read',
    (method) => {
      expect(requiredScope(products, method)).toBe('products:write');
    },
  );

  it('a fixed scope applies to every method; access without a scope needs none', () => {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(requiredScope({ scope: 'webhooks:manage' }, method)).toBe('webhooks:manage');
      expect(requiredScope('any-token', method)).toBeUndefined();
      expect(requiredScope('session', method)).toBeUndefined();
      expect(requiredScope('public', method)).toBeUndefined();
    }
  });
});

describe('ruleFor', () => {
  const table: Record<string, RouteRule> = {
    'GET /things/:id': { access: { resource: 'things' } },
    'PUT /things/:id': { access: { resource: 'things' } },
  };

  it('serves HEAD from the GET rule, and nothing for a route missing from the table', () => {
    expect(ruleFor('HEAD', '/things/:id', table)).toBe(table['GET /things/:id']);
    expect(ruleFor('PUT', '/things/:id', table)).toBe(table['PUT /things/:id']);
    expect(ruleFor('PATCH', '/things/:id', table)).toBeUndefined();
    expect(ruleFor('GET', undefined, table)).toBeUndefined();
  });
});
