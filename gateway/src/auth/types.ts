/** The tenant the request's Host resolved to; `base_url` prefixes every URL the API generates. */
export interface ResolvedTenant {
  id: string;
  slug: string;
  /** What people call the tenant (the web app's header). */
  name: string;
  host: string;
  base_url: string;
}

export interface AuthenticatedUser {
  id: number;
  isOwner: boolean;
  permissions: string[];
}

export type RequestAuth =
  | { kind: 'token'; tokenId: number; user: AuthenticatedUser; scopes: string[] }
  | { kind: 'session'; sessionToken: string; user: AuthenticatedUser };

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by the auth hook before any handler of a non-tenantless route runs
     * (unknown hosts never reach a handler), so handlers may use it directly.
     */
    tenant: ResolvedTenant;
    /** Who is calling; null on public routes without credentials. */
    auth: RequestAuth | null;
  }
}
