import { describe, expect, it } from 'vitest';
import { REDACTED, redactedHeaders, redactedUrl } from './attempt-request.js';

describe('what the delivery log keeps of a request', () => {
  it('drops the URL password and credential-like query values, keeping the rest', () => {
    expect(redactedUrl('https://hooks.example.com/in?source=erp&token=abc&api_key=k&page=2')).toBe(
      `https://hooks.example.com/in?source=erp&token=${encodeURIComponent(REDACTED)}&api_key=${encodeURIComponent(REDACTED)}&page=2`,
    );
    expect(redactedUrl('https://user:hunter2@hooks.example.com/in')).toBe(
      `https://user:${encodeURIComponent(REDACTED)}@hooks.example.com/in`,
    );
    expect(redactedUrl('https://hooks.example.com/in')).toBe('https://hooks.example.com/in');
    expect(redactedUrl('not a url')).toBe(REDACTED);
  });

  it('masks every signature value, keeping its scheme, and leaves other headers as sent', () => {
    const headers = redactedHeaders(
      {
        'X-SVC-Signature': `sha256=${'a'.repeat(64)}`,
        'webhook-signature': 'v1,AAAA v1,BBBB',
        'webhook-id': 'd-1',
        'Content-Type': 'application/json',
      },
      ['x-svc-signature', 'Webhook-Signature'],
    );
    expect(headers).toEqual({
      'X-SVC-Signature': `sha256=${REDACTED}`,
      'webhook-signature': `v1,${REDACTED} v1,${REDACTED}`,
      'webhook-id': 'd-1',
      'Content-Type': 'application/json',
    });
  });
});
