import { BlockList, isIP } from 'node:net';

export interface ParsedCidr {
  family: 'ipv4' | 'ipv6';
  address: string;
  prefix: number;
}

/** Parses `a.b.c.d/n`, `x::y/n`, or a bare address (a /32 or /128); undefined when invalid. */
export function parseCidr(text: string): ParsedCidr | undefined {
  if (typeof text !== 'string' || text.length > 64) return undefined;
  const [address, prefixText, extra] = text.trim().split('/');
  if (!address || extra !== undefined) return undefined;
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix < 0 || prefix > max) return undefined;
  return { family: version === 4 ? 'ipv4' : 'ipv6', address, prefix };
}

/** The canonical text stored for a range. */
export function normaliseCidr(text: string): string | undefined {
  const parsed = parseCidr(text);
  return parsed ? `${parsed.address.toLowerCase()}/${parsed.prefix}` : undefined;
}

/**
 * A BlockList over the ranges. IPv4 ranges also match IPv4-mapped IPv6
 * addresses (::ffff:a.b.c.d), which is how a dual-stack socket reports IPv4 peers.
 */
export function buildAllowlist(ranges: string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const parsed = parseCidr(range);
    if (!parsed) continue;
    list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}

export function ipAllowed(list: BlockList, ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  const version = isIP(address);
  if (version === 0) return false;
  return list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}
