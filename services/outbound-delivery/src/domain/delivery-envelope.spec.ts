import { createHmac } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { deliveryHeaders, parseEventData, serialiseEnvelope } from './delivery-envelope.js';
import { mintSigningSecret, signatureHeader, signatureOf } from './signing-secret.js';

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
    expect(deliveryHeaders('ACME', 'product.created', 'id-1', 'sha256=x')).toEqual({
      'X-ACME-Event': 'product.created',
      'X-ACME-Delivery-Id': 'id-1',
      'X-ACME-Signature': 'sha256=x',
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

  it('lists one value per live secret, newest first, comma-separated', () => {
    const [current, previous] = [mintSigningSecret(), mintSigningSecret()];
    expect(signatureHeader([current, previous], 'b')).toBe(
      `${signatureOf(current, 'b')},${signatureOf(previous, 'b')}`,
    );
    expect(signatureHeader([current], 'b')).toBe(signatureOf(current, 'b'));
  });
});
