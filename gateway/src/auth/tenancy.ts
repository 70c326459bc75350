import type { FastifyRequest } from 'fastify';
import { currentContext, enterContext, TtlCache } from '@inventory/platform';
import type { IdentityAdapter } from '../adapters/identity.js';
import { notFoundBody } from '../http/envelopes.js';
import { HttpError } from '../http/http-error.js';
import type { ResolvedTenant } from './types.js';

export interface TenancySettings {
  publicScheme: 'http' | 'https';
  publicPort: number;
  cacheTtlMs: number;
  /** Unknown hosts are remembered for less time, so a new tenant shows up quickly. */
  negativeCacheTtlMs: number;
  /** Development only: the tenant host that loopback hosts stand for (DEV_LOOPBACK_TENANT). */
  loopbackTenantHost?: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** `{base_url}`: the tenant's own address, with the port only when it is not the scheme's default. */
function baseUrlFor(host: string, scheme: 'http' | 'https', port: number): string {
  const defaultPort = scheme === 'https' ? 443 : 80;
  return `${scheme}://${host}${port && port !== defaultPort ? `:${port}` : ''}`;
}

const normaliseHost = (rawHost: string | undefined) =>
  (rawHost ?? '').trim().toLowerCase().replace(/\.$/, '');

/** Host → tenant, through identity, cached briefly per gateway replica. */
export class TenantResolver {
  /** One look-up per host at a time: requests that miss together share it. */
  private readonly cache: TtlCache<string, ResolvedTenant | null>;

  constructor(
    private readonly identity: IdentityAdapter,
    private readonly settings: TenancySettings,
  ) {
    this.cache = new TtlCache({
      ttlMs: (tenant) => (tenant ? settings.cacheTtlMs : settings.negativeCacheTtlMs),
    });
  }

  /**
   * The tenant of a host already cached under exactly that spelling, without a promise; undefined
   * when `resolve` must decide (not cached, expired, unknown host, or a spelling to normalise).
   */
  cached(rawHost: string | undefined): ResolvedTenant | undefined {
    return rawHost ? (this.cache.peek(rawHost)?.value ?? undefined) : undefined;
  }

  /**
   * `next` with the host's tenant: at once when it is cached, so the caller makes no promise
   * (ADR 0718), else once `resolve` has answered.
   */
  withTenant(
    rawHost: string | undefined,
    next: (tenant: ResolvedTenant | null) => Promise<void> | void,
  ): Promise<void> | void {
    const tenant = this.cached(rawHost);
    if (tenant) return next(tenant);
    return this.resolve(rawHost).then(next);
  }

  async resolve(rawHost: string | undefined): Promise<ResolvedTenant | null> {
    const host = normaliseHost(rawHost);
    if (this.settings.loopbackTenantHost && LOOPBACK_HOSTS.has(host))
      return this.cache.getOrLoad(host, () => this.load(host, this.settings.loopbackTenantHost));
    if (!host || host.length > 253 || !/^[a-z0-9.-]+$/.test(host)) return null;
    return this.cache.getOrLoad(host, () => this.load(host));
  }

  /** Only "no such host" is an answer worth keeping; identity being down throws and is not kept. */
  /** `lookupHost` is the tenant host a loopback host stands for; `{base_url}` keeps the loopback host. */
  private async load(host: string, lookupHost = host): Promise<ResolvedTenant | null> {
    const found = await this.identity.resolveTenant(lookupHost);
    if (!found) return null;
    return {
      id: found.id,
      slug: found.slug,
      name: found.name,
      host,
      base_url: baseUrlFor(host, this.settings.publicScheme, this.settings.publicPort),
    };
  }
}

/** The request is the tenant's from here on (handlers, logs, traces); an unknown host is a 404. */
export function enterTenant(request: FastifyRequest, tenant: ResolvedTenant | null): void {
  if (!tenant)
    throw new HttpError(
      404,
      notFoundBody(`No tenant answers on ${request.hostname.slice(0, 253)}.`),
    );
  request.tenant = tenant;
  const context = currentContext() ?? enterContext({ requestId: request.id });
  context.tenantId = tenant.id;
}
