import { eventually as poll } from '@inventory/local-infra';
import { describe, expect, it } from 'vitest';
import { httpCall } from '../../src/fixtures/http.js';
import { ignoredPushes, type WebhookLogRow as LogRow } from '../../src/fixtures/parcel-webhooks.js';
import { PREFIX, seedPendingRows } from './harness.js';
import { useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();

const eventually = <T>(check: () => Promise<T>, timeoutMs = 60_000): Promise<T> =>
  poll(check, timeoutMs);

const NOT_FOUND = {
  errors: { url: [{ message: expect.any(String), code: 'NotFound', data: [] }] },
  status: 'failure',
  message: expect.any(String),
};

describe('reprocessing inbound webhooks from the log, through the whole system (ADR 0230)', () => {
  async function tenantWithIgnoredPushes(numbers: string[]) {
    const { t, instance } = await suite.connected();
    const rows = await ignoredPushes(suite.p.system.gatewayUrl, t, instance, numbers);
    return { t, instance, log: `${PREFIX}/instances/${instance.id}/webhooks`, rows };
  }

  it('reprocesses an ignored webhook (unknown number) once the number is tracked: applied by the status machine, attempts shown; refuses a processed one, hides it from other tenants', async () => {
    const number = '1Z999AA10123456801';
    const { t, instance, log, rows } = await tenantWithIgnoredPushes([number]);
    const [row] = rows;
    expect(row).toMatchObject({ attempts: 1, reprocess_count: 0, reprocessing: false });
    await seedPendingRows(suite.p, t, instance.id, [number]);

    const answer = await t.request('POST', `${log}/${row!.id}/reprocess`);
    expect(answer.status).toBe(202);
    expect(answer.body.data).toMatchObject({ id: row!.id, reprocess_count: 1 });
    const processed = await eventually(async () => {
      const page = await t.request('GET', `${log}?filter[tracking_number]=${number}`);
      expect(page.body.data[0]).toMatchObject({ result: 'processed', reprocessing: false });
      return page.body.data[0] as LogRow;
    });
    expect(processed).toMatchObject({
      status_from: 'pending',
      status_to: 'in_transit',
      attempts: 2,
      reprocess_count: 1,
    });
    const trackings = await t.request('GET', `${PREFIX}/instances/${instance.id}/trackings`);
    expect(trackings.body.data[0]).toMatchObject({ delivery_status: 'in_transit' });

    const again = await t.request('POST', `${log}/${row!.id}/reprocess`);
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: expect.any(String), code: 'webhook_not_reprocessable' });

    const other = await suite.p.tenant();
    for (const [method, path] of [
      ['POST', `${log}/${row!.id}/reprocess`],
      ['POST', `${log}/reprocess`],
    ] as const) {
      const refused = await other.request(method, path);
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual(NOT_FOUND);
    }
    for (const path of [
      `${log}/abc/reprocess`,
      `${log}/1.5/reprocess`,
      `${log}/987654321/reprocess`,
    ]) {
      const refused = await t.request('POST', path);
      expect(refused.status, path).toBe(404);
      expect(refused.body).toEqual(NOT_FOUND);
    }
  });

  it('reprocesses every ignored webhook of a filter as a job: 202, its progress read until completed; bad filters 422, ugly bodies ignored, other ids 404', async () => {
    const numbers = ['1Z999AA10123456811', '1Z999AA10123456812', '1Z999AA10123456813'];
    const { t, instance, log } = await tenantWithIgnoredPushes(numbers);
    await seedPendingRows(suite.p, t, instance.id, numbers);

    // `__proto__` and `constructor.prototype` keys are refused by the JSON parser
    // (secure-json-parse): 400, and no job.
    for (const rawBody of [
      '{"__proto__":{"polluted":true}}',
      '{"constructor":{"prototype":{"polluted":true}}}',
    ]) {
      const refused = await httpCall(suite.p.system.gatewayUrl, 'POST', `${log}/reprocess`, {
        host: t.host,
        headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
        rawBody,
      });
      expect(refused.status, rawBody).toBe(400);
      expect(refused.body).toEqual({ message: expect.any(String), code: 'malformed_json' });
    }
    const jobs =
      suite.p.system.services['webhook-ingest']!.mongo.collection('webhook_reprocess_jobs');
    expect(await jobs.countDocuments({ tenant_id: t.tenant.id })).toBe(0);
    // A body's keys (NUL bytes among them) are not read: the filters are the log's, in the query.
    const started = await t.request('POST', `${log}/reprocess?filter[result]=ignored`, {
      filter: 'x\u0000',
      results: 5,
    });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({
      id: expect.any(String),
      integration_instance_id: instance.id,
      status: 'running',
      total: 3,
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await jobs.countDocuments({ tenant_id: t.tenant.id })).toBe(1);
    const job = `${log}/reprocess-jobs/${started.body.data.id}`;
    const done = await eventually(async () => {
      const answer = await t.request('GET', job);
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ status: 'completed' });
      return answer.body.data;
    });
    expect(done).toMatchObject({ total: 3, queued: 3, done: 3, finished_at: expect.any(String) });
    const page = await t.request('GET', `${log}?per_page=50`);
    expect(page.body.data.map((row: LogRow) => row.result)).toEqual([
      'processed',
      'processed',
      'processed',
    ]);

    for (const query of [
      'filter[result]=processed',
      'filter[result]=done',
      'filter[date_from]=13/45/2026',
      'filter[result]=failed,bogus',
    ]) {
      const refused = await t.request('POST', `${log}/reprocess?${query}`);
      expect(refused.status, query).toBe(422);
      expect(refused.body).toEqual({ message: expect.any(String), errors: expect.any(Object) });
    }
    const other = await suite.p.tenant();
    expect((await other.request('GET', job)).status).toBe(404);
    for (const path of [
      `${log}/reprocess-jobs/not-a-uuid`,
      `${log}/reprocess-jobs/00000000-0000-4000-8000-000000000000`,
      `${PREFIX}/instances/${instance.id + 1000}/webhooks/reprocess-jobs/${started.body.data.id}`,
    ]) {
      const refused = await t.request('GET', path);
      expect(refused.status, path).toBe(404);
      expect(refused.body).toEqual(NOT_FOUND);
    }
  });
});
