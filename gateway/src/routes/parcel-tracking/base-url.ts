import type { FastifyRequest } from 'fastify';

/**
 * `{base_url}` of the request's tenant, as the tenancy hook resolved it. The
 * fallback (Host plus the configured public scheme and port) only serves
 * requests that reached a handler without tenancy, which the route table rules out.
 */
export function baseUrlOf(request: FastifyRequest, scheme: 'http' | 'https', port: number): string {
  const tenant = (request as unknown as { tenant?: { base_url?: string } }).tenant;
  if (tenant?.base_url) return tenant.base_url;
  const defaultPort = scheme === 'https' ? 443 : 80;
  return `${scheme}://${request.hostname}${port && port !== defaultPort ? `:${port}` : ''}`;
}

/** Where an instance listing's page links point: the page's absolute path and its raw query. */
export function pageAddressOf(
  request: FastifyRequest,
  scheme: 'http' | 'https',
  port: number,
): { path: string; rawQuery: string } {
  const [pathname, rawQuery = ''] = request.url.split('?');
  return { path: `${baseUrlOf(request, scheme, port)}${pathname}`, rawQuery };
}
