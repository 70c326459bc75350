import { BlockList, isIP } from 'node:net';

/**
 * A token's allowlist as a BlockList. IPv4 ranges also match IPv4-mapped IPv6
 * peers (::ffff:a.b.c.d), which is how dual-stack sockets report IPv4 clients.
 */
export function buildAllowlist(ranges: string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split('/');
    const version = isIP(address ?? '');
    if (version === 0) continue;
    list.addSubnet(
      address!,
      prefix === undefined ? (version === 4 ? 32 : 128) : Number(prefix),
      version === 4 ? 'ipv4' : 'ipv6',
    );
  }
  return list;
}

export function ipAllowed(list: BlockList, ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip;
  const version = isIP(address);
  return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}
