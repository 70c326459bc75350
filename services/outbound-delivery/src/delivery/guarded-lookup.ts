import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { refusedAddress, type ReceiverPolicy, type Resolve } from '../domain/receiver-url.js';

export class RefusedAddressError extends Error {
  readonly code = 'EREFUSEDADDRESS';
}

/** The system resolver: every address of a name. */
export const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    systemLookup(hostname, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((entry) => entry.address)),
    ),
  );

/**
 * The `lookup` of the delivery agents: the addresses a connection is opened to are the ones
 * checked here, at every new connection, so a name that resolved to a public address when
 * the subscription was created and to a private one now (DNS rebinding) is refused.
 */
export function guardedLookup(policy: ReceiverPolicy, resolve: Resolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const usable: LookupAddress[] = [];
        for (const address of addresses) {
          const refused = refusedAddress(address, policy);
          if (refused) {
            callback(new RefusedAddressError(`${hostname} ${refused}`), '', 0);
            return;
          }
          usable.push({ address, family: address.includes(':') ? 6 : 4 });
        }
        const wanted = options.family
          ? usable.filter((entry) => entry.family === options.family)
          : usable;
        if (wanted.length === 0) {
          callback(
            Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
          return;
        }
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
