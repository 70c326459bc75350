import { createHash } from 'node:crypto';
import {
  ParcelTrackingServiceService,
  TrackingUpdateOutcome,
  type ApplyTrackingUpdateRequest,
  type ParcelTrackingServiceServer,
  type VerifyWebhookSignatureRequest,
} from '@inventory/contracts/parcel_tracking/v1/parcel_tracking.js';
import {
  eventually,
  freePort,
  type ManagedProcess,
  spawnServiceMain,
  startTestInfra,
  type TestInfra,
} from '@inventory/local-infra';
import {
  AppError,
  createLogger,
  enterContext,
  runWithContext,
  startGrpcServer,
  type AsyncService,
  type GrpcServerHandle,
} from '@inventory/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createParcelTrackingAdapter,
  type ParcelTrackingAdapter,
} from '../../adapters/parcel-tracking.js';
import {
  createWebhookIngestAdapter,
  type WebhookIngestAdapter,
} from '../../adapters/webhook-ingest.js';
import { registerErrorHandling } from '../../http/error-handler.js';
import { parcelTrackingWebhookLogRoutes } from '../parcel-tracking/webhooks.js';
import { parcelTrackingWebhookRoutes } from './parcel-tracking.js';

const API_KEY = 'gateway_test_provider_key';
const HOSTS: Record<string, string> = { 'acme.test': 'acme', 'other.test': 'other' };
const INSTANCE = 5;
const LOG = `/api/integrations/parcel-tracking/instances/${INSTANCE}/webhooks`;
const token = (suffix: string) => `wh_${suffix.padEnd(43, 'x')}`;

/**
 * parcel-tracking's contract with scripted answers (it is not the subject):
 * instance 5 exists for tenant `acme` only; signatures are checked for real;
 * numbers starting STALE are ignored as out of order, others applied.
 */
async function startFakeParcelTracking(): Promise<GrpcServerHandle> {
  const verify = (request: VerifyWebhookSignatureRequest) => ({
    valid:
      createHash('sha256').update(request.raw_body).update(`/${API_KEY}`).digest('hex') ===
      request.signature,
  });
  const apply = (request: ApplyTrackingUpdateRequest) =>
    request.update!.tracking_number.startsWith('STALE')
      ? {
          outcome: TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_STALE,
          status_from: 'delivered',
          status_to: 'delivered',
          tracking_id: 1,
        }
      : {
          outcome: TrackingUpdateOutcome.TRACKING_UPDATE_OUTCOME_APPLIED,
          status_from: 'in_transit',
          status_to: 'delivered',
          tracking_id: 1,
        };
  const implementation = {
    checkInstance: async ({ id }, context) => {
      if (context.tenant() !== 'acme' || id !== INSTANCE)
        throw new AppError(5, 'not_found', 'Parcel-tracking instance not found.');
      return { id, history_instance_ids: [] };
    },
    verifyWebhookSignature: async (request) => verify(request),
    applyTrackingUpdate: async (request) => apply(request),
    // webhook-ingest gathers concurrent calls into these (ADR 0226); each item as the single call.
    verifyWebhookSignatures: async ({ checks }) => ({ results: checks.map(verify) }),
    applyTrackingUpdates: async ({ updates }) => ({
      results: updates.map((update) => ({ answer: apply(update) })),
    }),
  } as Partial<
    AsyncService<ParcelTrackingServiceServer>
  > as AsyncService<ParcelTrackingServiceServer>;
  return startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    logger: createLogger({ service: 'fake-parcel-tracking', level: 'silent' }),
    services: [
      {
        name: 'inventory.parcel_tracking.v1.ParcelTrackingService',
        definition: ParcelTrackingServiceService,
        implementation,
      },
    ],
  });
}

const push = (number: string, event = 'TRACKING_UPDATED') =>
  JSON.stringify({
    event,
    data: {
      number,
      carrier: 100002,
      tag: null,
      track_info: {
        latest_status: { status: 'Delivered', sub_status: 'Delivered_Other' },
        latest_event: {
          time_utc: '2025-03-02T14:47:05Z',
          description: 'Delivered',
          location: 'Austin, TX, US',
        },
      },
    },
  });
const sign = (body: string) => createHash('sha256').update(`${body}/${API_KEY}`).digest('hex');
/** Bodies webhook-ingest stores as failed and refuses 422, and the field each one names. */
const UNREADABLE: Array<[string, Record<string, string>, string]> = [
  ['', {}, 'body'],
  ['', { 'content-type': 'application/json' }, 'body'],
  ['not json', { 'content-type': 'text/plain' }, 'body'],
  [
    `{"event":"X","data":${'['.repeat(2000)}${']'.repeat(2000)}}`,
    { 'content-type': 'application/json' },
    'body',
  ],
  ['{"data":{"number":"1Z1"}}', { 'content-type': 'application/json' }, 'event'],
  ['{"event":"TRACKING_UPDATED","data":{}}', { 'content-type': 'application/json' }, 'data.number'],
];

describe('inbound webhook route and the webhook log, through the real webhook-ingest', () => {
  let infra: TestInfra;
  let fake: GrpcServerHandle;
  let service: ManagedProcess;
  let webhookIngest: WebhookIngestAdapter;
  let parcelTracking: ParcelTrackingAdapter;
  let app: FastifyInstance;

  const post = (
    body: string,
    headers: Record<string, string> = {},
    host = 'acme.test',
    path = token('acme'),
  ) =>
    app.inject({
      method: 'POST',
      url: `/webhooks/parcel-tracking/${path}`,
      headers: { host, ...headers },
      payload: body,
    });
  const log = (query = '', host = 'acme.test', path = LOG) =>
    app.inject({ method: 'GET', url: `${path}${query}`, headers: { host } });
  const registerToken = (suffix: string, instanceId: number) =>
    runWithContext({ requestId: 'setup', tenantId: 'acme' }, () =>
      webhookIngest.handle.call.registerToken({
        token: token(suffix),
        provider: 'parcel-tracking',
        integration_instance_id: instanceId,
      }),
    );

  beforeAll(async () => {
    infra = await startTestInfra({ redis: false });
    fake = await startFakeParcelTracking();
    const grpcPort = await freePort();
    service = await spawnServiceMain('services/webhook-ingest/src/main.ts', {
      env: {
        MONGO_URL: infra.mongoUrl,
        MONGO_DB: infra.dbName('webhook_ingest'),
        NATS_URL: infra.natsUrl,
        LOG_LEVEL: 'info',
        GRPC_PORT: String(grpcPort),
        PARCEL_TRACKING_GRPC_ADDRESS: fake.address,
        WEBHOOK_POLL_INTERVAL_MS: '50',
      },
    });
    webhookIngest = createWebhookIngestAdapter(`127.0.0.1:${grpcPort}`, { deadlineMs: 10_000 });
    parcelTracking = createParcelTrackingAdapter(fake.address);
    await registerToken('acme', INSTANCE);
    app = Fastify();
    registerErrorHandling(app);
    // What the gateway's tenancy and auth hooks leave on a request: the tenant by Host.
    app.addHook('onRequest', async (request) => {
      const tenantId = HOSTS[request.headers.host ?? ''];
      enterContext({ requestId: request.id, tenantId });
      Object.assign(request, {
        tenant: { id: tenantId, base_url: `https://${request.headers.host}` },
      });
    });
    await app.register(parcelTrackingWebhookRoutes, { webhookIngest });
    await app.register(parcelTrackingWebhookLogRoutes, {
      parcelTracking,
      webhookIngest,
      publicScheme: 'https',
      publicPort: 0,
    });
  });
  afterAll(async () => {
    await app?.close();
    webhookIngest?.close();
    parcelTracking?.close();
    await service?.stop();
    await fake?.stop(1_000);
    await infra?.stop();
  });

  it('answers concurrent large pushes each on its own (batches never grow past a gRPC message)', async () => {
    // 24 signed pushes of ~600 KiB at once: together far more than the 8 MiB a gRPC message may
    // carry, each over the 256 KiB webhook-ingest stores whole, so each is its own 422.
    const bodies = Array.from(
      { length: 24 },
      (_, n) =>
        `{"event":"TRACKING_UPDATED","data":{"number":"BIG${n}","pad":"${'x'.repeat(600 * 1024)}"}}`,
    );
    // An address of its own (instance 6), so the log test does not count these rows.
    await registerToken('acmebig', INSTANCE + 1);
    const answers = await Promise.all(
      bodies.map((body) =>
        post(
          body,
          { 'content-type': 'application/json', sign: sign(body) },
          'acme.test',
          token('acmebig'),
        ),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(bodies.map(() => 422));
  });

  it('answers 200 once stored, 401 for a bad sign, 422 for unreadable bodies (never 500), 404 for unknown tokens', async () => {
    // An address of its own (instance 7), so the log test does not count these rows.
    await registerToken('acmeanswers', INSTANCE + 2);
    const own = (body: string, headers: Record<string, string>) =>
      post(body, headers, 'acme.test', token('acmeanswers'));
    const body = push('1Z999AA10000000001');
    expect(
      (await own(body, { 'content-type': 'application/json', sign: sign(body) })).json(),
    ).toEqual({ message: 'Webhook received.' });
    const forged = await own(body, { 'content-type': 'application/json', sign: sign(`${body} `) });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({
      message: 'The webhook signature (sign header) does not match the body.',
    });
    for (const [payload, headers, field] of UNREADABLE) {
      const answer = await own(payload, headers);
      expect(answer.statusCode, payload.slice(0, 20)).toBe(422);
      expect(Object.keys(answer.json().errors)).toEqual([field]);
      expect(answer.json().message).toEqual(expect.any(String));
    }
    for (const [path, host] of [
      [token('unknown'), 'acme.test'],
      [token('acme'), 'other.test'],
      ['not-a-token', 'acme.test'],
    ] as const) {
      const answer = await post(body, { 'content-type': 'application/json' }, host, path);
      expect(answer.statusCode).toBe(404);
      expect(answer.json().errors.url[0].code).toBe('NotFound');
    }
  });

  it('lists the rows with the links/meta envelope, filters, sorts and page URLs that keep them', async () => {
    const json = { 'content-type': 'application/json' };
    const first = push('1Z999AA10000000001');
    expect((await post(first, { ...json, sign: sign(first) })).statusCode).toBe(200);
    expect((await post(first, { ...json, sign: sign(`${first} `) })).statusCode).toBe(401);
    for (const [payload, headers] of UNREADABLE)
      expect((await post(payload, headers)).statusCode).toBe(422);
    for (const number of ['1Z999AA10000000002', 'STALE0000000003', 'TBA.*000004']) {
      const body = push(number);
      expect((await post(body, { sign: sign(body) })).statusCode).toBe(200);
    }
    // 1 processed + 1 forged + 6 refused + 3 more = 11 rows, each with a result.
    const all = await eventually(async () => {
      const answer = (await log('?per_page=100')).json();
      expect(answer.meta.total).toBe(11);
      return answer;
    });
    expect(all.data[0]).toEqual({
      id: expect.any(Number),
      integration_instance_id: INSTANCE,
      received_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      event_type: 'TRACKING_UPDATED',
      tracking_number: 'TBA.*000004',
      status_from: 'in_transit',
      status_to: 'delivered',
      summary: 'in_transit → delivered',
      payload: {
        event: 'TRACKING_UPDATED',
        data: {
          number: 'TBA.*000004',
          carrier: 100002,
          track_info: { latest_status: { status: 'Delivered', sub_status: 'Delivered_Other' } },
        },
      },
      result: 'processed',
      error_message: null,
      processing_duration_ms: expect.any(Number),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      // After the specification's fields (ADR 0230).
      attempts: 1,
      reprocess_count: 0,
      reprocessing: false,
    });
    const received = all.data.map((row: { received_at: string }) => row.received_at);
    expect(received).toEqual([...received].sort().reverse());

    const failed = (await log('?filter[result]=failed,ignored&sort=received_at&per_page=3')).json();
    expect(failed.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 3,
      per_page: 3,
      to: 3,
      total: 8,
      path: `https://acme.test${LOG}`,
    });
    const query = 'filter%5Bresult%5D=failed%2Cignored&sort=received_at&per_page=3';
    expect(failed.links).toEqual({
      first: `https://acme.test${LOG}?${query}&page=1`,
      last: `https://acme.test${LOG}?${query}&page=3`,
      prev: null,
      next: `https://acme.test${LOG}?${query}&page=2`,
    });
    expect(failed.data[0].error_message).toMatch(/signature/);

    const stale = (await log('?filter[tracking_number]=stale')).json();
    expect(stale.data.map((row: { result: string }) => row.result)).toEqual(['ignored']);
    expect(stale.data[0].error_message).toMatch(/older/);
    // Regex characters are literal text.
    expect((await log('?filter[tracking_number]=.*')).json().meta.total).toBe(1);
    expect((await log('?filter[tracking_number]=A.*0')).json().meta.total).toBe(1);

    expect((await log('?filter[event_type]=TRACKING_STOPPED')).json().meta.total).toBe(0);
    const day = new Date();
    const mdY = (date: Date) =>
      `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')}/${date.getUTCFullYear()}`;
    const today = mdY(day);
    const yesterday = mdY(new Date(day.getTime() - 86_400_000));
    expect(
      (await log(`?filter[date_from]=${today}&filter[date_to]=${today}`)).json().meta.total,
    ).toBe(11);
    expect((await log(`?filter[date_to]=${yesterday}`)).json().meta.total).toBe(0);
    const byType = (await log('?sort=-event_type,result&per_page=100')).json();
    const pairs = byType.data.map((row: { event_type: string; result: string }) => [
      row.event_type,
      row.result,
    ]);
    expect(pairs[0]).toEqual(['TRACKING_UPDATED', 'failed']);
    expect(pairs.at(-1)[0]).toBe('');
    expect(pairs.findIndex((pair: string[]) => pair[1] === 'processed')).toBeGreaterThan(
      pairs.findLastIndex(
        (pair: string[]) => pair[0] === 'TRACKING_UPDATED' && pair[1] === 'failed',
      ),
    );
  });

  it('answers 422 naming the field for bad filters, sorts and pages', async () => {
    for (const [query, field] of [
      ['?filter[result]=done', 'filter.result'],
      ['?filter[result]=processed,nope', 'filter.result'],
      ['?filter[date_from]=2024-01-01', 'filter.date_from'],
      ['?filter[date_to]=02/30/2024', 'filter.date_to'],
      ['?sort=tracking_number', 'sort'],
      ['?sort=-id', 'sort'],
      ['?page=0', 'page'],
      ['?page=1e9', 'page'],
      ['?per_page=abc', 'per_page'],
      [`?filter[tracking_number]=${'x'.repeat(300)}`, 'filter.tracking_number'],
    ]) {
      const answer = await log(query);
      expect(answer.statusCode, query).toBe(422);
      expect(Object.keys(answer.json().errors), query).toEqual([field]);
    }
  });

  it('answers 404 for an unknown instance or another tenant asking', async () => {
    for (const [path, host] of [
      ['/api/integrations/parcel-tracking/instances/6/webhooks', 'acme.test'],
      ['/api/integrations/parcel-tracking/instances/abc/webhooks', 'acme.test'],
      [LOG, 'other.test'],
    ]) {
      const answer = await log('', host, path);
      expect(answer.statusCode, `${host}${path}`).toBe(404);
      expect(answer.json().errors.url[0].code).toBe('NotFound');
    }
  });
});
