import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValidWebhookSignature } from './webhook-signature.js';

const body = Buffer.from('{"event":"TRACKING_UPDATED","data":{"number":"RR123"}}');
const sign = (raw: Buffer, key: string) =>
  createHash('sha256').update(`${raw.toString()}/${key}`).digest('hex');

describe('isValidWebhookSignature', () => {
  it('accepts the hex SHA-256 of `<raw body>/<api key>`, in either case', () => {
    expect(isValidWebhookSignature(body, 'key-12345', sign(body, 'key-12345'))).toBe(true);
    expect(isValidWebhookSignature(body, 'key-12345', sign(body, 'key-12345').toUpperCase())).toBe(
      true,
    );
  });

  it('refuses another key, another body, a truncated or non-hex value', () => {
    const good = sign(body, 'key-12345');
    expect(isValidWebhookSignature(body, 'key-other', good)).toBe(false);
    expect(isValidWebhookSignature(Buffer.from(`${body} `), 'key-12345', good)).toBe(false);
    expect(isValidWebhookSignature(body, 'key-12345', good.slice(0, 63))).toBe(false);
    expect(isValidWebhookSignature(body, 'key-12345', `${good.slice(0, 63)}z`)).toBe(false);
    expect(isValidWebhookSignature(body, 'key-12345', '')).toBe(false);
  });
});
