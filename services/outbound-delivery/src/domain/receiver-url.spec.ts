import { describe, expect, it } from 'vitest';
import { checkResolvedHost, checkUrlShape, refusedAddress } from './receiver-url.js';

const strict = { allowHttp: false, allowLoopback: false };
const dev = { allowHttp: true, allowLoopback: true };

describe('refusedAddress', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.5.6.7', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.100.100.200', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::', '6to4'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedAddress(address, strict)).toContain(range);
  });

  it('allows public unicast', () => {
    expect(refusedAddress('93.184.216.34', strict)).toBeUndefined();
    expect(refusedAddress('2606:4700::1111', strict)).toBeUndefined();
  });

  it('allows loopback only when the development setting says so, never private ranges', () => {
    expect(refusedAddress('127.0.0.1', dev)).toBeUndefined();
    expect(refusedAddress('::1', dev)).toBeUndefined();
    expect(refusedAddress('10.0.0.1', dev)).toContain('private');
  });
});

describe('checkUrlShape', () => {
  it('needs https unless http is allowed', () => {
    expect(checkUrlShape('http://example.com/hook', strict)).toEqual({
      ok: false,
      message: 'The url must use https.',
    });
    expect(checkUrlShape('http://example.com/hook', dev).ok).toBe(true);
    expect(checkUrlShape('ftp://example.com/hook', dev).ok).toBe(false);
  });

  it('refuses credentials, junk and more than 2,048 characters', () => {
    expect(checkUrlShape('https://user:pw@example.com/', strict)).toMatchObject({
      message: 'The url may not contain credentials.',
    });
    expect(checkUrlShape('https://user@example.com/', strict).ok).toBe(false);
    expect(checkUrlShape('not a url', strict).ok).toBe(false);
    const long = `https://example.com/${'a'.repeat(2048)}`;
    expect(checkUrlShape(long, strict)).toMatchObject({
      message: 'The url may not be greater than 2048 characters.',
    });
    const exact = `https://example.com/${'a'.repeat(2048 - 20)}`;
    expect(exact).toHaveLength(2048);
    expect(checkUrlShape(exact, strict).ok).toBe(true);
  });

  it.each([
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:a00:1]/',
    'https://169.254.169.254/latest/meta-data',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://10.0.0.1:8443/',
    'https://metadata.google.internal/',
  ])('refuses the literal or metadata host of %s', (url) => {
    expect(checkUrlShape(url, strict).ok).toBe(false);
  });
});

describe('checkResolvedHost', () => {
  const resolver = (table: Record<string, string[]>) => async (host: string) => {
    const found = table[host];
    if (!found) throw new Error('ENOTFOUND');
    return found;
  };

  it('refuses a name when any of its addresses is private', async () => {
    const resolve = resolver({ 'mixed.test': ['93.184.216.34', '10.0.0.7'] });
    expect(await checkResolvedHost(new URL('https://mixed.test/'), strict, resolve)).toContain(
      'private',
    );
  });

  it('refuses names resolving to loopback, mapped loopback or metadata', async () => {
    const resolve = resolver({
      'lo.test': ['127.0.0.1'],
      'mapped.test': ['::ffff:127.0.0.1'],
      'meta.test': ['169.254.169.254'],
    });
    for (const host of ['lo.test', 'mapped.test', 'meta.test'])
      expect(await checkResolvedHost(new URL(`https://${host}/`), strict, resolve)).toBeDefined();
  });

  it('refuses a name that does not resolve and accepts a public one', async () => {
    const resolve = resolver({ 'public.test': ['93.184.216.34'] });
    expect(await checkResolvedHost(new URL('https://nowhere.test/'), strict, resolve)).toBe(
      'The url host could not be resolved.',
    );
    expect(
      await checkResolvedHost(new URL('https://public.test/'), strict, resolve),
    ).toBeUndefined();
  });
});
