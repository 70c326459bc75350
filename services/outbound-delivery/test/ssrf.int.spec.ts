import { describe, expect, it } from 'vitest';
import { as, failureOf, waitFor } from './harness.js';
import { useReceiverSuite } from './suite.js';

const TENANT = 'tenant-ssrf';

/**
 * Production rules (https only, no loopback). Names resolve through a table so names that
 * point at private ranges can be tested without a DNS server; `localhost` uses the real
 * system resolver.
 */
describe('receiver URL refusals (SSRF)', () => {
  const dns = new Map<string, string[]>([
    ['internal.example', ['10.0.0.7']],
    ['mixed.example', ['93.184.216.34', '192.168.1.10']],
    ['meta.example', ['169.254.169.254']],
    ['cgnat.example', ['100.64.1.1']],
    ['v6loop.example', ['::1']],
    ['mapped.example', ['::ffff:127.0.0.1']],
    ['multicast.example', ['239.1.2.3']],
    ['rebind.example', ['93.184.216.34']],
  ]);
  const resolve = async (host: string) => {
    if (host === 'localhost') return ['127.0.0.1', '::1'];
    const found = dns.get(host);
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found;
  };

  const suite = useReceiverSuite({
    env: { WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_LOOPBACK: 'false' },
    bootstrap: { resolve },
    receiver: false,
  });

  const urlViolation = async (url: string) => {
    const failure = await failureOf(
      as(TENANT, () =>
        suite.h.client.call.createSubscription({
          url,
          events: ['product.created'],
          input_violations: [],
        }),
      ),
    );
    expect(failure.code).toBe(3);
    return failure.fieldViolations.find((v) => v.field === 'url')?.description;
  };

  it.each([
    ['http://example.com/hook', 'The url must use https.'],
    ['https://user:secret@example.com/hook', 'The url may not contain credentials.'],
    [`https://example.com/${'x'.repeat(2040)}`, 'The url may not be greater than 2048 characters.'],
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['https://[::ffff:10.0.0.1]/hook', 'private'],
    ['https://10.1.1.1/hook', 'private'],
    ['https://172.16.5.4/hook', 'private'],
    ['https://192.168.0.1/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'linkLocal'],
    ['https://100.64.0.1/hook', 'carrierGradeNat'],
    ['https://224.0.0.251/hook', 'multicast'],
    ['https://[fe80::1]/hook', 'linkLocal'],
    ['https://[fd00:ec2::254]/hook', 'uniqueLocal'],
    ['https://2130706433/hook', 'loopback'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'metadata'],
    ['https://localhost/hook', 'loopback'],
    ['https://internal.example/hook', 'private'],
    ['https://mixed.example/hook', 'private'],
    ['https://meta.example/hook', 'linkLocal'],
    ['https://cgnat.example/hook', 'carrierGradeNat'],
    ['https://v6loop.example/hook', 'loopback'],
    ['https://mapped.example/hook', 'loopback'],
    ['https://multicast.example/hook', 'multicast'],
    ['https://unknown.example/hook', 'could not be resolved'],
  ])('refuses %s (422 on url)', async (url, reason) => {
    expect(await urlViolation(url)).toContain(reason);
  });

  it('refuses a name that resolved to a public address at creation but to loopback at delivery (DNS rebinding)', async () => {
    const { subscription } = await as(TENANT, () =>
      suite.h.client.call.createSubscription({
        url: 'https://rebind.example/hook',
        events: ['product.created'],
        input_violations: [],
      }),
    );
    dns.set('rebind.example', ['127.0.0.1']);
    await as(TENANT, () => suite.h.client.call.sendTestPing({ subscription_id: subscription!.id }));
    const failed = await waitFor(async () => {
      const { deliveries } = await suite.deliveriesOf(TENANT, subscription!.id);
      return deliveries[0]?.attempts[0];
    }, 'the first attempt');
    expect(failed.response_status).toBeUndefined();
    expect(failed.error).toMatch(/^refused: rebind\.example .*loopback/);
  });
});

describe('redirects', () => {
  const suite = useReceiverSuite();

  it('never follows a redirect: the 3xx is a failed attempt', async () => {
    suite.receiver.respond((request, response) => {
      if (request.path === '/hook') response.writeHead(302, { location: '/elsewhere' }).end();
      else response.writeHead(200).end();
    });
    const { subscription } = await as(TENANT, () =>
      suite.h.client.call.createSubscription({
        url: `${suite.receiver.url}/hook`,
        events: ['product.created'],
        input_violations: [],
      }),
    );
    await as(TENANT, () => suite.h.client.call.sendTestPing({ subscription_id: subscription!.id }));
    const delivery = await waitFor(async () => {
      const { deliveries } = await suite.deliveriesOf(TENANT, subscription!.id);
      return deliveries[0]?.status === 'failed' ? deliveries[0] : undefined;
    }, 'the delivery to fail');
    expect(delivery.attempts.map((a) => a.response_status)).toEqual([302, 302, 302]);
    expect(suite.receiver.requests.map((r) => r.path)).toEqual(['/hook', '/hook', '/hook']);
  });
});
