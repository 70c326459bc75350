import { connectParcelInstance } from '../lib/parcel-instance.js';
import { seedTrackings } from '../parcel-trackings/seed.js';
import { count, type BenchContext } from './context.js';
import { pacedMeasure, pooled, saturation } from './measure.js';
import type { Measured, RowInput } from './report.js';

const BARE_GET = 'bare Fastify GET';

/** A paced GET through the gateway beside the bare hello-world at the same rate and count. */
async function pacedGet(
  context: BenchContext,
  row: Omit<RowInput, 'measured' | 'baseline' | 'baselineTitle'> & { path: string; total: number },
  withSaturation = false,
): Promise<RowInput> {
  const url = `${context.system.gatewayUrl}${row.path}`;
  context.log(`${row.id}: ${row.total} requests at ${row.rate}/s`);
  const baselines: Measured[] = [];
  const measurements: Measured[] = [];
  await context.warm(context.system.processes(), {
    url,
    headers: context.auth,
    ratePerSecond: row.rate,
  });
  for (let pair = 0; pair < context.repeat; pair++) {
    baselines.push(
      await context.bare({ ratePerSecond: row.rate, total: row.total }, false, context.repeat > 1),
    );
    measurements.push(
      await pacedMeasure(context.system.processes(), {
        url,
        headers: context.auth,
        ratePerSecond: row.rate,
        total: row.total,
      }),
    );
  }
  const baseline = pooled(baselines);
  const measured = pooled(measurements);
  const saturated = withSaturation
    ? {
        perSecond: await saturation(url, context.auth, context.saturationSeconds),
        baselinePerSecond: await context.bareSaturation(),
      }
    : undefined;
  return {
    id: row.id,
    title: row.title,
    rate: row.rate,
    measured,
    baseline,
    baselineTitle: BARE_GET,
    saturation: saturated,
    target: row.target,
    note: row.note,
  };
}

/** `/healthz` and authenticated `GET /api/user`: the gateway's floor and its hottest path. */
export async function gatewayRows(context: BenchContext): Promise<RowInput[]> {
  const total = count(context, 5000, 2000);
  const user = 'authenticated `GET /api/user`';
  const specs = [
    // The gateway's own cost: what every request passes through, judged on its process alone.
    {
      id: 'healthz',
      title: 'gateway `/healthz`',
      path: '/healthz',
      rate: 1000,
      total,
      target: { cpuRatio: 1.5, cpuOf: 'gateway' },
    },
    { id: 'api-user', title: user, path: '/api/user', rate: 1000, total, target: { cpuRatio: 4 } },
    {
      id: 'api-user-500',
      title: user,
      path: '/api/user',
      rate: 500,
      total: count(context, 5000, 2500),
      target: { p50Ms: 2, p99Ms: 10 },
    },
  ];
  const rows: RowInput[] = [];
  for (const spec of specs)
    if (context.wants(spec.id)) rows.push(await pacedGet(context, spec, spec.rate === 1000));
  return rows;
}

/** Creates the parcel-tracking instance the instance, trackings and webhook rows use. */
export async function createInstance(
  context: BenchContext,
): Promise<{ id: number; webhookPath: string }> {
  const { gatewayUrl, dev } = context.system;
  const data = await connectParcelInstance(gatewayUrl, context.auth, dev.provider_api_key);
  return { id: data.id, webhookPath: new URL(data.webhook_url).pathname };
}

/** `GET /instances/{id}` (quota cached) and the trackings list at 100,000 rows. */
export async function parcelRows(context: BenchContext, instanceId: number): Promise<RowInput[]> {
  const rows: RowInput[] = [];
  const base = `/api/integrations/parcel-tracking/instances/${instanceId}`;
  if (context.wants('instance'))
    rows.push(
      await pacedGet(context, {
        id: 'instance',
        title: '`GET /instances/{id}`, quota cached',
        path: base,
        rate: 200,
        total: count(context, 2000, 600),
        note: 'the quota is read from the provider at most once per QUOTA_CACHE_TTL_MS (10 s) per instance',
      }),
    );
  if (!['trackings-page', 'trackings-count', 'instance-100k'].some((id) => context.wants(id)))
    return rows;
  const trackingRows = count(context, 100_000, 20_000);
  const seeded = performance.now();
  const { dev } = context.system;
  await seedTrackings(dev.mongo_url, dev.tenant_id, instanceId, trackingRows);
  context.log(
    `seeded ${trackingRows} tracking rows in ${Math.round(performance.now() - seeded)} ms`,
  );
  const total = count(context, 500, 200);
  const rowsNote = `${trackingRows.toLocaleString('en')} rows on the instance`;
  if (context.wants('trackings-page'))
    rows.push(
      await pacedGet(context, {
        id: 'trackings-page',
        title: 'trackings list, 2 statuses, `-last_event_at`, page 3 of 25',
        path: `${base}/trackings?filter%5Bdelivery_status%5D=delivered%2Cin_transit&sort=-last_event_at&per_page=25&page=3`,
        rate: 50,
        total,
        target: { p95Ms: 20 },
        note: rowsNote,
      }),
    );
  if (context.wants('trackings-count'))
    rows.push(
      await pacedGet(context, {
        id: 'trackings-count',
        title: 'trackings count (`per_page=1`)',
        path: `${base}/trackings?per_page=1`,
        rate: 50,
        total,
        target: { p95Ms: 10 },
        note: rowsNote,
      }),
    );
  // The dashboard where it is dear: counts, unregistered rows and the transit summary over every
  // row delivered in the window (ADR 0720), on the seeded instance.
  if (context.wants('instance-100k'))
    rows.push(
      await pacedGet(context, {
        id: 'instance-100k',
        title: '`GET /instances/{id}`, quota cached',
        path: base,
        rate: 5,
        total: count(context, 100, 40),
        note: `${rowsNote}, ${Math.round(trackingRows / 7).toLocaleString('en')} of them delivered in the transit window`,
      }),
    );
  return rows;
}
