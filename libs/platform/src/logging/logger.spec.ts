import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, maskSecrets } from './logger.js';
import { runWithContext } from './request-context.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { lines, logger: createLogger({ service: 'spec', destination }) };
}

describe('logger', () => {
  it('redacts authorization headers, api keys, tokens, secrets and passwords', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        req: { headers: { authorization: 'Bearer 1|supersecretvalue' } },
        body: { api_key: 'provider-key-123', password: 'pw-secret' },
        instance: { webhook_token: 'wh_abcdef0123456789' },
        subscription: { secret: 'whsec_topsecret' },
      },
      'request',
    );
    const output = lines.join('');
    for (const secret of [
      'supersecretvalue',
      'provider-key-123',
      'pw-secret',
      'wh_abcdef0123456789',
      'whsec_topsecret',
    ]) {
      expect(output).not.toContain(secret);
    }
    expect(output).toContain('[REDACTED]');
  });

  it('stamps every line with the request context', () => {
    const { lines, logger } = capture();
    runWithContext({ requestId: 'r-1', tenantId: 't-1' }, () => logger.info('inside'));
    expect(JSON.parse(lines[0]!)).toMatchObject({
      request_id: 'r-1',
      tenant_id: 't-1',
      msg: 'inside',
    });
  });

  it('logs a request without headers and with any token in its URL masked', () => {
    const { lines, logger } = capture();
    logger.info(
      {
        req: {
          method: 'POST',
          url: '/webhooks/parcel-tracking/wh_0123456789abcdef/extra',
          host: 'a.example',
          headers: { authorization: 'Bearer 1|x' },
        },
      },
      'incoming request',
    );
    const logged = JSON.parse(lines[0]!) as { req: Record<string, unknown> };
    expect(logged.req).toEqual({
      method: 'POST',
      url: '/webhooks/parcel-tracking/wh_[REDACTED]/extra',
      host: 'a.example',
    });
  });

  it('masks token-shaped text inside free strings such as URLs', () => {
    expect(maskSecrets('/webhooks/parcel-tracking/wh_0123456789abcdef')).toBe(
      '/webhooks/parcel-tracking/wh_[REDACTED]',
    );
    expect(maskSecrets('Bearer 12|abcdefghijklmnopqrstuvwxyz0123456789ABCD')).toBe(
      'Bearer 12|[REDACTED]',
    );
  });
});
