import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { withDocumentGateway } from '../../scripts/document-gateway.js';
import { param } from '../http/param-fields.js';
import { declareRoutes, handle, refuseUndeclaredRoutes, routeTableOf } from '../http/routes.js';
import { ROUTE_TABLE } from './route-table.js';

const THINGS = declareRoutes({
  show: {
    method: 'GET',
    url: '/things/:id',
    access: { resource: 'things' },
    input: { params: { id: param.id('Thing not found.') } },
  },
});

describe('the route table (ADR 0014)', () => {
  it('is what the route modules declare, and the gateway registers every entry', async () => {
    await withDocumentGateway(async (gateway) => {
      const missing = Object.keys(ROUTE_TABLE).filter((key) => {
        const [method, url] = key.split(' ') as [string, string];
        return !gateway.app.hasRoute({ method: method as 'GET', url });
      });
      expect(missing).toEqual([]);
    });
  });

  it('refuses, at registration, a route registered outside the declarations', async () => {
    const app = Fastify();
    refuseUndeclaredRoutes(app, routeTableOf(THINGS));
    handle(app, THINGS.show, async () => ({ ok: true }));
    expect(() => app.get('/things/:id/secret', async () => ({ leaked: true }))).toThrow(
      'Route GET /things/:id/secret is not declared in the route table.',
    );
    expect(() => app.post('/things/:id', async () => ({}))).toThrow(/not declared/);
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/things/1' })).json()).toEqual({ ok: true });
    expect(app.hasRoute({ method: 'GET', url: '/things/:id/secret' })).toBe(false);
    await app.close();
  });

  it('refuses one path declared twice', () => {
    const again = declareRoutes({ other: { ...THINGS.show, access: 'public' } });
    expect(() => routeTableOf(THINGS, again)).toThrow('Route GET /things/:id is declared twice.');
  });

  it('keeps only the rule of each declaration, keyed METHOD /url', () => {
    expect(routeTableOf(THINGS)).toEqual({ 'GET /things/:id': { access: { resource: 'things' } } });
  });
});
