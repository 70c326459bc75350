import { ACTIVITY_STREAM, activityEntry, INTEGRATION_INSTANCE_SUBJECT } from '@inventory/events';
import {
  eventually,
  freePort,
  type ManagedProcess,
  spawnServiceMain,
  startTestInfra,
  type TestInfra,
} from '@inventory/local-infra';
import { runWithContext, ServiceRuntime } from '@inventory/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivityAdapter, type ActivityAdapter } from '../../adapters/activity.js';
import { HttpError } from '../../http/http-error.js';
import { readQuery, refuseInvalid } from '../../http/route-input.js';
import { ACTIVITY_QUERY } from './activity-query.js';
import { instanceActivityPage } from './instance-activity.js';

const PATH =
  'https://acme.inventory.localhost/api/integrations/parcel-tracking/instances/5/activity';

describe('instance activity page through the real activity service', () => {
  let infra: TestInfra;
  let service: ManagedProcess;
  let producer: ServiceRuntime;
  let adapter: ActivityAdapter;

  // The query is read as the route's declaration reads it (handle() does so before the handler).
  const page = (query: Record<string, string>, tenantId = 'acme') =>
    runWithContext({ requestId: 'r1', tenantId }, async () => {
      const { values, errors } = readQuery(ACTIVITY_QUERY, query);
      refuseInvalid(errors);
      return instanceActivityPage({
        activity: adapter,
        instanceId: 5,
        query: values,
        path: PATH,
        rawQuery: new URLSearchParams(query).toString(),
      });
    });

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    const env = { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, LOG_LEVEL: 'silent' };
    // The real service as its own process: the gateway never imports a service's code.
    const grpcPort = await freePort();
    service = await spawnServiceMain('services/activity/src/main.ts', {
      env: {
        ...env,
        LOG_LEVEL: 'info',
        MONGO_DB: infra.dbName('activity'),
        GRPC_PORT: String(grpcPort),
      },
    });
    producer = await ServiceRuntime.start({
      name: 'gateway-activity-producer',
      dbName: infra.dbName('producer'),
      streams: [ACTIVITY_STREAM],
      config: {
        ...env,
        GRPC_HOST: '127.0.0.1',
        GRPC_PORT: 0,
        METRICS_PORT: 0,
        SHUTDOWN_TIMEOUT_MS: 5_000,
      },
    });
    producer.startOutboxRelay();
    adapter = createActivityAdapter(`127.0.0.1:${grpcPort}`, { deadlineMs: 2_000 });
    const entries = Array.from({ length: 12 }, (_, index) =>
      activityEntry({
        tenantId: 'acme',
        event: index === 0 ? 'connected' : 'webhook_processed',
        description: index === 0 ? 'Connected' : `Webhook ${index} processed`,
        ...(index === 0
          ? { subject: { type: INTEGRATION_INSTANCE_SUBJECT, id: 5 }, causerId: '3' }
          : { integrationInstanceId: 5 }),
        occurredAt: new Date(Date.UTC(2024, 2, 1 + index)),
      }),
    );
    await producer.outbox.withEvents(entries, async () => undefined);
    await eventually(async () => expect((await page({})).meta.total).toBe(12), 'the 12 rows');
  });
  afterAll(async () => {
    adapter?.close();
    await producer?.stop();
    await service?.stop();
    await infra?.stop();
  });

  it('answers the links/meta envelope with presented rows, newest first', async () => {
    const body = await page({
      'filter[event_type]': 'webhook_processed,connected',
      sort: '-created_at',
    });
    expect(body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 2,
      per_page: 10,
      to: 10,
      total: 12,
      path: PATH,
    });
    expect(body.links).toEqual({
      first: `${PATH}?filter%5Bevent_type%5D=webhook_processed%2Cconnected&sort=-created_at&page=1`,
      last: `${PATH}?filter%5Bevent_type%5D=webhook_processed%2Cconnected&sort=-created_at&page=2`,
      prev: null,
      next: `${PATH}?filter%5Bevent_type%5D=webhook_processed%2Cconnected&sort=-created_at&page=2`,
    });
    expect(body.data[0]).toEqual({
      id: expect.any(Number),
      event: 'webhook_processed',
      description: 'Webhook 11 processed',
      subject_type: null,
      subject_id: null,
      causer_id: null,
      properties: { integration_instance_id: 5 },
      created_at: '2024-03-12T00:00:00.000Z',
    });
  });

  it('filters by causer and inclusive m/d/Y dates', async () => {
    const connected = await page({ 'filter[causer_id]': '3' });
    expect(connected.data).toEqual([
      expect.objectContaining({
        event: 'connected',
        causer_id: 3,
        subject_type: 'integration_instance',
        subject_id: 5,
      }),
    ]);
    const days = await page({
      'filter[date_from]': '03/02/2024',
      'filter[date_to]': '03/03/2024',
      sort: 'created_at',
    });
    expect(days.data.map((item) => item.created_at)).toEqual([
      '2024-03-02T00:00:00.000Z',
      '2024-03-03T00:00:00.000Z',
    ]);
  });

  it('gives the last page with null next', async () => {
    const last = await page({ page: '2' });
    expect(last.data).toHaveLength(2);
    expect(last.links.next).toBeNull();
    expect(last.meta).toMatchObject({ from: 11, to: 12 });
  });

  it('shows another tenant nothing for this instance id', async () => {
    expect((await page({}, 'other-tenant')).meta).toMatchObject({
      total: 0,
      from: null,
      to: null,
      last_page: 1,
    });
  });

  it('throws a 422 HttpError for a bad query before calling the service', async () => {
    const error = await page({ 'filter[date_from]': '2024-03-01', sort: 'nope' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(422);
    expect((error as HttpError).body).toEqual({
      message: 'The filter.date_from field must match the format m/d/Y. (and 1 more error)',
      errors: {
        'filter.date_from': ['The filter.date_from field must match the format m/d/Y.'],
        sort: [
          'Requested sort(s) `nope` is not allowed. Allowed sort(s) are `created_at, event, id`.',
        ],
      },
    });
  });

  it('turns an unreachable service into a 503', async () => {
    const down = createActivityAdapter(`127.0.0.1:${await freePort()}`, { deadlineMs: 500 });
    const error = await runWithContext({ requestId: 'r2', tenantId: 'acme' }, () =>
      down.listActivities({
        integration_instance_id: 5,
        event_types: [],
        causer_ids: [],
        search: '',
        tracking_number: '',
        sort: [],
        history_instance_ids: [],
      }),
    ).catch((e: unknown) => e);
    down.close();
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(503);
  });
});
