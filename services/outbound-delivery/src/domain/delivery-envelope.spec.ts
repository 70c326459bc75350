import { createHmac } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, parseEventData, serialiseEnvelope } from './delivery-envelope.js';
import { Webhook } from 'standardwebhooks';
import {
  mintSigningSecret,
  signatureOf,
  signingKeyOf,
  standardSignature,
} from './signing-secret.js';

describe('serialiseEnvelope', () => {
  it('writes exactly event, delivery_id, occurred_at (ISO UTC), data, in that order', () => {
    const body = serialiseEnvelope({
      event: 'sales_order.created',
      deliveryId: '5f0c6a9e-2d7b-4c1e-9a51-0d1f1b0e7c11',
      occurredAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
      data: { id: 1, lines: [{ sku: 'A' }] },
    });
    expect(body).toBe(
      '{"event":"sales_order.created","delivery_id":"5f0c6a9e-2d7b-4c1e-9a51-0d1f1b0e7c11",' +
        '"occurred_at":"2026-01-02T03:04:05.006Z","data":{"id":1,"lines":[{"sku":"A"}]}}',
    );
  });
});

describe('parseEventData', () => {
  it('accepts JSON objects only', () => {
    expect(parseEventData('{"a":1}')).toEqual({ a: 1 });
    expect(parseEventData('')).toEqual({});
    for (const bad of ['[1]', '1', 'null', '"x"', '{not json'])
      expect(parseEventData(bad)).toBeUndefined();
  });
});

describe('deliveryHeaders', () => {
  it('uses the configured short name in all three headers and the User-Agent', () => {
    const signatures = { svc: 'sha256=x', standard: 'v1,y', timestampSeconds: 1_700_000_000 };
    expect(deliveryHeaders('ACME', 'product.created', 'id-1', signatures)).toEqual({
      'X-ACME-Event': 'product.created',
      'X-ACME-Delivery-Id': 'id-1',
      'X-ACME-Signature': 'sha256=x',
      'webhook-id': 'id-1',
      'webhook-timestamp': '1700000000',
      'webhook-signature': 'v1,y',
      'User-Agent': 'ACME-Webhook/1.0',
      'Content-Type': 'application/json',
    });
  });
});

describe('signatures', () => {
  it('mints whsec_ plus 32 random bytes in base64, different every time', () => {
    const secrets = new Set(Array.from({ length: 50 }, mintSigningSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret.startsWith('whsec_')).toBe(true);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    }
  });

  it('is the hex HMAC-SHA256 of the raw body keyed with the secret, as a stock verifier checks', async () => {
    const secret = mintSigningSecret();
    const body = '{"event":"ping","data":{"é":"ü"}}';
    const expected = createHmac('sha256', secret).update(body).digest('hex');
    expect(signatureOf(secret, body)).toBe(`sha256=${expected}`);
    expect(await verify(secret, body, signatureOf(secret, body))).toBe(true);
    expect(await verify(secret, `${body} `, signatureOf(secret, body))).toBe(false);
  });

  it('signs the Standard Webhooks way with every live secret, verifiable by the standard library', () => {
    const [current, previous] = [mintSigningSecret(), mintSigningSecret()];
    const body = '{"event":"ping","data":{}}';
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const signature = standardSignature([current!, previous!], {
      id: 'msg_1',
      timestampSeconds,
      body,
    });
    expect(signature.split(' ')).toHaveLength(2);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': signature,
    };
    for (const secret of [current!, previous!])
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(mintSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current!).verify(`${body} `, headers)).toThrow();
  });

  it('signs the same with the keys derived once from a secret as with the secret itself', () => {
    const [current, previous] = [mintSigningSecret(), mintSigningSecret()];
    const body = '{"event":"product.created","data":{"name":"Käse"}}';
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const message = { id: 'msg_2', timestampSeconds, body };
    expect(signatureOf(signingKeyOf(current!), body)).toBe(signatureOf(current!, body));
    const keyed = standardSignature([signingKeyOf(current!), signingKeyOf(previous!)], message);
    expect(keyed).toBe(standardSignature([current!, previous!], message));
    const headers = {
      'webhook-id': 'msg_2',
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': keyed,
    };
    for (const secret of [current!, previous!])
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });
});
