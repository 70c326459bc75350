import { eventually } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { GOOD_KEY, OTHER_KEY, PREFIX, seedPendingRows, validCreate } from './harness.js';
import { useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();
const { connected } = suite;

describe('DELETE /instances/{id}', () => {
  it('204 with no content; the old webhook_url then answers 404; reconnecting gives a new id and token', async () => {
    const { t, instance } = await connected();
    const webhookPath = new URL(instance.webhook_url).pathname;
    expect(
      (
        await t.anonymous('POST', webhookPath, {
          event: 'TRACKING_UPDATED',
          data: { number: '1Z999AA10123456784' },
        })
      ).status,
    ).toBe(200);

    const response = await t.request('DELETE', `${PREFIX}/instances/${instance.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');

    const old = await t.anonymous('POST', webhookPath, {
      event: 'TRACKING_UPDATED',
      data: { number: '1Z999AA10123456784' },
    });
    expect(old.status).toBe(404);
    expect(old.body.errors.url[0].code).toBe('NotFound');
    expect((await t.request('GET', `${PREFIX}/instances/${instance.id}`)).status).toBe(404);
    expect((await t.request('DELETE', `${PREFIX}/instances/${instance.id}`)).status).toBe(404);

    const again = await t.request('POST', `${PREFIX}/instances`, validCreate());
    expect(again.status).toBe(201);
    expect(again.body.data.id).not.toBe(instance.id);
    expect(again.body.data.webhook_url).not.toBe(instance.webhook_url);
  });
});

describe('history after a disconnect (ADR 0215)', () => {
  it("the reconnected instance lists the old instance's trackings (stopped), webhooks and activity", async () => {
    const { t, instance: old } = await connected();
    const number = 'HISTORY0000001';
    await seedPendingRows(suite.p, t, old.id, [number]);
    await eventually(() => {
      if (!suite.p.sim.trackings().some((row) => row.number === number))
        throw new Error('not registered yet');
    }, 'the old row registered');
    const pushed = await t.anonymous('POST', new URL(old.webhook_url).pathname, {
      event: 'TRACKING_UPDATED',
      data: {
        number,
        carrier: 3011,
        track_info: { latest_status: { status: 'InTransit', sub_status: 'InTransit_PickedUp' } },
      },
    });
    expect(pushed.status).toBe(200);
    const oldLog = `${PREFIX}/instances/${old.id}/webhooks`;
    await eventually(async () => {
      if ((await t.request('GET', oldLog)).body.meta?.total !== 1) throw new Error('not logged');
    }, 'the push in the old log');
    expect((await t.request('DELETE', `${PREFIX}/instances/${old.id}`)).status).toBe(204);

    const created = await t.request('POST', `${PREFIX}/instances`, validCreate());
    expect(created.status).toBe(201);
    const now = `${PREFIX}/instances/${created.body.data.id}`;
    const trackings = await t.request('GET', `${now}/trackings`);
    expect(trackings.status).toBe(200);
    expect(trackings.body.data).toEqual([
      expect.objectContaining({ tracking_number: number, stopped_at: expect.any(String) }),
    ]);
    const webhooks = await t.request('GET', `${now}/webhooks`);
    expect(webhooks.body.data).toEqual([
      expect.objectContaining({ integration_instance_id: old.id, tracking_number: number }),
    ]);
    const activity = await eventually(async () => {
      const page = await t.request('GET', `${now}/activity?per_page=100`);
      const events = (page.body.data as Array<{ event: string }>).map((row) => row.event);
      if (!events.includes('disconnected')) throw new Error('no disconnected row yet');
      return events;
    }, 'the disconnected row in the new instance activity');
    // Its own connect, and the old instance's connect and disconnect.
    expect(activity.filter((event) => event === 'connected')).toHaveLength(2);

    // The old id itself stays gone; another tenant sees none of this history.
    expect((await t.request('GET', `${PREFIX}/instances/${old.id}/trackings`)).status).toBe(404);
    const { t: other, instance: theirs } = await connected();
    const foreign = `${PREFIX}/instances/${theirs.id}`;
    expect((await other.request('GET', `${foreign}/trackings`)).body.meta.total).toBe(0);
    expect((await other.request('GET', `${foreign}/webhooks`)).body.meta.total).toBe(0);
  });
});

describe('DELETE after an api_key rotation', () => {
  it('stops at the provider every row, those registered under the rotated-out key too', async () => {
    const { t, instance } = await connected();
    const { sim } = suite.p;
    const tracked = (key: string, numbers: string[]) =>
      sim.trackings().filter((row) => row.api_key === key && numbers.includes(row.number));
    const registered = (key: string, numbers: string[]) =>
      eventually(() => {
        if (tracked(key, numbers).length !== numbers.length) throw new Error('not registered yet');
      }, `${numbers.length} numbers registered under ${key}`);
    const old = ['ROTATED0000001', 'ROTATED0000002', 'ROTATED0000003'];
    await seedPendingRows(suite.p, t, instance.id, old);
    await registered(GOOD_KEY, old);

    const rotated = await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
      api_key: OTHER_KEY,
    });
    expect(rotated.status).toBe(200);
    const current = ['CURRENT0000001', 'CURRENT0000002'];
    await seedPendingRows(suite.p, t, instance.id, current);
    await registered(OTHER_KEY, current);

    expect((await t.request('DELETE', `${PREFIX}/instances/${instance.id}`)).status).toBe(204);
    await eventually(() => {
      const live = [...tracked(GOOD_KEY, old), ...tracked(OTHER_KEY, current)].filter(
        (row) => row.tracking_state !== 'Stopped',
      );
      if (live.length > 0) throw new Error(`still tracking: ${live.map((row) => row.number)}`);
    }, 'every row stopped at the provider, whichever key registered it');
  });
});

describe('tenant isolation', () => {
  it('tenant B with its own token on its own host gets 404 for tenant A’s instance on every endpoint', async () => {
    const { t: a, instance } = await connected();
    const b = await suite.p.tenant();
    for (const [method, path, body] of [
      ['GET', `${PREFIX}/instances/${instance.id}`, undefined],
      ['PATCH', `${PREFIX}/instances/${instance.id}`, { name: 'stolen' }],
      ['DELETE', `${PREFIX}/instances/${instance.id}`, undefined],
      ['GET', `${PREFIX}/instances/${instance.id}/trackable-channels`, undefined],
    ] as const) {
      const response = await b.request(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.errors.url[0].code).toBe('NotFound');
    }
    expect((await a.request('GET', `${PREFIX}/instances/${instance.id}`)).body.data.name).toBe(
      'Parcel tracking',
    );
    // A's webhook URL path on B's host is unknown there.
    expect((await b.anonymous('POST', new URL(instance.webhook_url).pathname, {})).status).toBe(
      404,
    );
  });

  it('requires a token on the instance endpoints', async () => {
    const { t, instance } = await connected();
    expect((await t.anonymous('GET', `${PREFIX}/instances/${instance.id}`)).status).toBe(401);
    expect((await t.anonymous('POST', `${PREFIX}/test`, { api_key: GOOD_KEY })).status).toBe(401);
  });
});

describe('GET /instances/{id}/activity', () => {
  it('shows connected (causer: the user) and updated (changed_keys, no secrets); 404 for another tenant', async () => {
    const { t, instance } = await connected();
    await t.request('PATCH', `${PREFIX}/instances/${instance.id}`, {
      name: 'Renamed',
      api_key: OTHER_KEY,
    });
    // Connecting also records the backfill's two rows; this test is about the user's actions.
    const activity = `${PREFIX}/instances/${instance.id}/activity?filter[event_type]=connected,updated`;
    await expect
      .poll(async () => (await t.request('GET', activity)).body.data?.length, { timeout: 30_000 })
      .toBe(2);
    const page = await t.request('GET', activity);
    const events = page.body.data as Array<{
      event: string;
      causer_id: unknown;
      properties: Record<string, unknown>;
    }>;
    expect(events.map((row) => row.event).sort()).toEqual(['connected', 'updated']);
    expect(events.every((row) => row.causer_id === t.user.id)).toBe(true);
    expect(events.find((row) => row.event === 'updated')!.properties.changed_keys).toEqual([
      'name',
      'api_key',
    ]);
    expect(page.text).not.toContain(OTHER_KEY);
    expect(page.text).not.toContain(GOOD_KEY);
    expect(page.body.meta.path).toBe(`${t.baseUrl}${PREFIX}/instances/${instance.id}/activity`);

    const b = await suite.p.tenant();
    expect((await b.request('GET', `${PREFIX}/instances/${instance.id}/activity`)).status).toBe(
      404,
    );
    expect((await t.request('GET', `${PREFIX}/instances/999999/activity`)).status).toBe(404);
  });
});
