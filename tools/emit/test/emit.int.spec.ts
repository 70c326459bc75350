import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ShipmentTrackingAssigned } from '@inventory/contracts/events/v1/shipment.js';
import { startNatsServer, type LocalServer } from '@inventory/local-infra';
import { decodeEnvelope } from '@inventory/platform';
import { AckPolicy, connect, DeliverPolicy } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_USAGE, runEmit } from '../src/emit.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let nats: LocalServer;
let devDir: string;

beforeAll(async () => {
  devDir = mkdtempSync(join(tmpdir(), 'emit-'));
  nats = await startNatsServer({ dataDir: join(devDir, 'nats') });
  writeFileSync(
    join(devDir, 'dev.json'),
    JSON.stringify({ nats_url: nats.url, tenant_id: 'tenant-dev', tenant_slug: 'dev' }),
  );
});
afterAll(() => nats?.stop());

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEmit(argv, {
    env: { DEV_DATA_DIR: devDir, ...env },
    cwd: devDir,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out, err };
}

const assigned = {
  trackable_type: 'inbound_shipment',
  trackable_id: 12,
  trackable_label: 'IS-12',
  trackable_url: '/inbound-shipments/12',
  tracking_number: '1Z999AA10123456784',
};

describe('npm run emit', () => {
  it('--help lists every event', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    for (const name of [
      'shipment.tracking_assigned',
      'shipment.tracking_changed',
      'shipment.tracking_removed',
    ])
      expect(out.join('\n')).toContain(name);
  });

  it('an unknown event exits 2 naming the known ones', async () => {
    const { code, err, out } = await run(['shipment.nope', '--data', '{}']);
    expect(code).toBe(EXIT_USAGE);
    expect(out).toEqual([]);
    expect(err.join('')).toMatch(/unknown event "shipment.nope".*shipment.tracking_assigned/);
  });

  it.each([
    ['not JSON', '{oops', /not valid JSON/],
    [
      'a missing field',
      JSON.stringify({ ...assigned, tracking_number: undefined }),
      /tracking_number/,
    ],
    ['a wrong type', JSON.stringify({ ...assigned, trackable_id: '12' }), /trackable_id/],
    [
      'an unknown trackable type',
      JSON.stringify({ ...assigned, trackable_type: 'invoice' }),
      /trackable_type/,
    ],
    ['an unknown field', JSON.stringify({ ...assigned, extra: 1 }), /extra|Unrecognized/],
    [
      'an absolute URL',
      JSON.stringify({ ...assigned, trackable_url: 'https://evil.example/x' }),
      /trackable_url/,
    ],
    [
      'a huge number',
      JSON.stringify({ ...assigned, tracking_number: 'A'.repeat(10_000) }),
      /tracking_number/,
    ],
  ])('bad data (%s) exits 2 with the reason, publishing nothing', async (_name, data, reason) => {
    const { code, err } = await run(['shipment.tracking_assigned', '--data', data]);
    expect(code).toBe(EXIT_USAGE);
    expect(err.join('')).toMatch(reason);
  });

  it('without a development tenant or NATS it exits 2 saying what to do', async () => {
    const missing = await run(
      ['shipment.tracking_removed', '--data', '{"trackable_type":"rma","trackable_id":1}'],
      {
        DEV_DATA_DIR: join(devDir, 'absent'),
      },
    );
    expect(missing.code).toBe(EXIT_USAGE);
    expect(missing.err.join('')).toMatch(/NATS_URL/);
  });

  it('publishes one event a real consumer receives, and prints one JSON line', async () => {
    const { code, out } = await runProcess([
      'shipment.tracking_assigned',
      '--data',
      JSON.stringify(assigned),
    ]);
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0]!) as {
      subject: string;
      event_id: string;
      tenant_id: string;
    };
    expect(printed).toMatchObject({
      subject: 'shipment.tracking_assigned',
      tenant_id: 'tenant-dev',
    });

    const connection = await connect({ servers: nats.url });
    try {
      const manager = await connection.jetstreamManager();
      await manager.consumers.add('SHIPMENTS', {
        durable_name: 'emit-test',
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: 'shipment.tracking_assigned',
      });
      const consumer = await connection.jetstream().consumers.get('SHIPMENTS', 'emit-test');
      const message = await consumer.next({ expires: 10_000 });
      expect(message).not.toBeNull();
      const envelope = decodeEnvelope(message!.data);
      message!.ack();
      expect(envelope).toMatchObject({
        id: printed.event_id,
        tenant_id: 'tenant-dev',
        subject: 'shipment.tracking_assigned',
      });
      expect(ShipmentTrackingAssigned.decode(envelope.payload)).toMatchObject(assigned);
    } finally {
      await connection.drain();
    }
  });
});

/** The real command line, as a person types it (`npm run emit -- ...`). */
async function runProcess(argv: string[]) {
  try {
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'emit', '--', ...argv],
      {
        cwd: ROOT,
        env: { ...process.env, DEV_DATA_DIR: devDir },
      },
    );
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout, err: failed.stderr };
  }
}
