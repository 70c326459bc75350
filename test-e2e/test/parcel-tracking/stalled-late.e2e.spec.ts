import { describe, expect, it } from 'vitest';
import { PREFIX, seedPendingRows } from './harness.js';
import { useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();
const HOUR = 3600_000;

describe('stalled and late shipments through the gateway (ADR 0218)', () => {
  it('filters the trackings list by filter[stalled] and filter[late], counts both on the dashboard, refuses a bad flag', async () => {
    const { t, instance } = await suite.connected();
    const ago = (hours: number) => new Date(Date.now() - hours * HOUR);
    const shape: Record<string, Record<string, unknown>> = {
      E2ESTALLED1: { delivery_status: 'in_transit', last_event_at: ago(100) },
      E2EMOVING01: { delivery_status: 'in_transit', last_event_at: ago(1) },
      E2ELATE0001: { delivery_status: 'out_for_delivery', estimated_delivery_at: ago(30) },
    };
    await seedPendingRows(suite.p, t, instance.id, Object.keys(shape));
    const rows = suite.p.system.services['parcel-tracking']!.mongo.collection('tracking_rows');
    for (const [number, fields] of Object.entries(shape))
      await rows.updateOne({ tenant_id: t.tenant.id, tracking_number: number }, { $set: fields });

    const numbers = async (query: string) => {
      const answer = await t.request(
        'GET',
        `${PREFIX}/instances/${instance.id}/trackings?${query}`,
      );
      expect(answer.status, query).toBe(200);
      return answer.body.data.map((row: { tracking_number: string }) => row.tracking_number);
    };
    expect(await numbers('filter[stalled]=true')).toEqual(['E2ESTALLED1']);
    expect(await numbers('filter[late]=1')).toEqual(['E2ELATE0001']);
    expect(await numbers('filter[late]=0')).toHaveLength(3);
    const page = await t.request(
      'GET',
      `${PREFIX}/instances/${instance.id}/trackings?filter[stalled]=true&per_page=1`,
    );
    // The filter is kept in the page links, as every other filter.
    expect(page.body.links.first).toContain('filter%5Bstalled%5D=true');

    const bad = await t.request(
      'GET',
      `${PREFIX}/instances/${instance.id}/trackings?filter[stalled]=maybe`,
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['filter.stalled']);

    const dashboard = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(dashboard.body.data).toMatchObject({ stalled_count: 1, late_count: 1 });
  });
});
