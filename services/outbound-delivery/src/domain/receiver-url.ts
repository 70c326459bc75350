import ipaddr from 'ipaddr.js';

export const MAX_URL_LENGTH = 2048;

/** Cloud metadata endpoints reachable by name inside some clouds. */
const METADATA_HOSTNAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data']);

export interface ReceiverPolicy {
  /** Development only: http:// receivers. */
  allowHttp: boolean;
  /** Development and tests only: loopback receivers. */
  allowLoopback: boolean;
}

/** Resolves a host name to every address it has (the default is the system resolver). */
export type Resolve = (hostname: string) => Promise<string[]>;

/**
 * Why an address may not receive webhooks, or undefined when it may. Only public unicast is
 * allowed: private, loopback, link-local (cloud metadata 169.254.169.254), CGNAT, multicast,
 * unique-local (fd00:ec2::254), reserved and IPv4-embedding IPv6 forms are refused; IPv4-mapped
 * IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address it carries.
 */
export function refusedAddress(address: string, policy: ReceiverPolicy): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return 'is not an IP address';
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return `resolves to a ${range} address (${parsed.toString()})`;
}

/** The bare host of a URL: brackets of an IPv6 literal removed. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/** The checks that need no DNS: shape, scheme, credentials, length, literal addresses. */
export function checkUrlShape(raw: string, policy: ReceiverPolicy): UrlCheck {
  if (raw.length > MAX_URL_LENGTH)
    return { ok: false, message: `The url may not be greater than ${MAX_URL_LENGTH} characters.` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'The url must be a valid URL.' };
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    return {
      ok: false,
      message: policy.allowHttp ? 'The url must use http or https.' : 'The url must use https.',
    };
  if (url.username || url.password)
    return { ok: false, message: 'The url may not contain credentials.' };
  const host = hostOf(url);
  if (!host) return { ok: false, message: 'The url must name a host.' };
  if (METADATA_HOSTNAMES.has(host.toLowerCase()))
    return { ok: false, message: 'The url may not point at a cloud metadata service.' };
  if (ipaddr.isValid(host)) {
    const refused = refusedAddress(host, policy);
    if (refused) return { ok: false, message: `The url ${refused}.` };
  }
  return { ok: true, url };
}

/**
 * Resolves the URL's host and refuses it when ANY address is not allowed (a name with one
 * private address among public ones could be steered there by the resolver).
 */
export async function checkResolvedHost(
  url: URL,
  policy: ReceiverPolicy,
  resolve: Resolve,
): Promise<string | undefined> {
  const host = hostOf(url);
  if (ipaddr.isValid(host)) return refusedAddress(host, policy) && `The url is not allowed.`;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return 'The url host could not be resolved.';
  }
  if (addresses.length === 0) return 'The url host could not be resolved.';
  for (const address of addresses) {
    const refused = refusedAddress(address, policy);
    if (refused) return `The url ${refused}.`;
  }
  return undefined;
}
