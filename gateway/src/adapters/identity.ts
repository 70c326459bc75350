import {
  IdentityServiceClient,
  type AuthToken,
  type CreateTokenRequest,
  type CreateTokenResponse,
  type ListMembersResponse,
  type ListTenantTokensRequest,
  type ListTenantTokensResponse,
  type ListTokenRequestsRequest,
  type ListTokenRequestsResponse,
  type ListTokensResponse,
  type LoginRequest,
  type LoginResponse,
  type RegenerateTokenRequest,
  type RegenerateTokenResponse,
  type Session,
  type SetTokenPolicyRequest,
  type SetTokenPolicyResponse,
  type Tenant,
  type Token,
  type TokenPolicy,
  type TokenUsage,
  type UpdateTokenRequest,
} from '@inventory/contracts/identity/v1/identity.js';
import { createGrpcClient, type GrpcClientHandle } from '@inventory/platform';
import { asHttp, asHttpOrMissing } from '../http/grpc-to-http.js';
import { FAIL_FAST_ON_A_STOPPED_SERVICE } from './downstream.js';

/**
 * The gateway's one door to identity. Every call carries the request context
 * (tenant, user) as metadata; refusals and outages come back as the
 * specification's HTTP errors (`HttpError`, with identity's reason), mapped here
 * once as for every other service. Look-ups that may find nothing answer
 * `undefined` instead of a 404.
 */
export interface IdentityAdapter {
  /** The tenant answering on `host` (tenantless call), or undefined. */
  resolveTenant(host: string): Promise<Tenant | undefined>;
  /** The record a bearer token is checked against; undefined when unknown, revoked, expired or another tenant's. */
  getTokenForAuth(tokenId: number): Promise<AuthToken | undefined>;
  getSession(sessionToken: string): Promise<Session>;
  login(request: LoginRequest): Promise<LoginResponse>;
  logout(sessionToken: string): Promise<void>;
  enrollTwoFactor(): Promise<{ secret: string; otpauth_url: string }>;
  confirmTwoFactor(code: string): Promise<string[]>;
  disableTwoFactor(password: string, code: string): Promise<void>;
  listTokens(page: number, perPage: number): Promise<ListTokensResponse>;
  createToken(request: CreateTokenRequest): Promise<CreateTokenResponse>;
  updateToken(request: UpdateTokenRequest): Promise<Token>;
  revokeToken(id: number): Promise<void>;
  regenerateToken(request: RegenerateTokenRequest): Promise<RegenerateTokenResponse>;
  getTokenPolicy(): Promise<TokenPolicy | undefined>;
  setTokenPolicy(request: SetTokenPolicyRequest): Promise<SetTokenPolicyResponse>;
  listTenantTokens(request: ListTenantTokensRequest): Promise<ListTenantTokensResponse>;
  revokeTenantToken(id: number): Promise<void>;
  listMembers(page: number, perPage: number): Promise<ListMembersResponse>;
  /** Tokens reported as leaked, on the request's tenant; answers nothing about them. */
  reportLeakedTokens(tokens: string[], url: string): Promise<void>;
  listTokenRequests(request: ListTokenRequestsRequest): Promise<ListTokenRequestsResponse>;
  getTokenUsage(tokenId: number, days: number): Promise<TokenUsage>;
  close(): void;
  /** The raw client, for the `StreamUsers` stream (adapters/identity-user-streams.ts). */
  readonly handle: GrpcClientHandle<IdentityServiceClient>;
}

/**
 * Deadline per call, circuit breaker (a trial call 2 s after it opens). Every identity call is
 * local to identity, so one deadline fits all. Keepalive pings fail the calls and user streams in
 * flight to a frozen identity within seconds, and the connection gate fails the next ones at once
 * until it is back (issue #18 item 6, ADR 0710).
 */
export interface IdentityAdapterOptions {
  /** Per-call deadline (the gateway's GRPC_DEADLINE_MS). */
  deadlineMs?: number;
}

export function createIdentityAdapter(
  address: string,
  options: IdentityAdapterOptions = {},
): IdentityAdapter {
  const handle = createGrpcClient(IdentityServiceClient, address, {
    deadlineMs: options.deadlineMs ?? 5_000,
    breaker: { resetTimeoutMs: 2_000 },
    ...FAIL_FAST_ON_A_STOPPED_SERVICE,
  });
  const call = handle.call;
  return {
    handle,
    resolveTenant: async (host) =>
      (await asHttpOrMissing(() => call.resolveTenant({ host })))?.tenant,
    getTokenForAuth: async (tokenId) =>
      (await asHttpOrMissing(() => call.getTokenForAuth({ token_id: tokenId })))?.token,
    getSession: async (sessionToken) =>
      (await asHttp(() => call.getSession({ session_token: sessionToken }))).session!,
    login: (request) => asHttp(() => call.login(request)),
    logout: (sessionToken) =>
      asHttp(async () => void (await call.logout({ session_token: sessionToken }))),
    enrollTwoFactor: () => asHttp(() => call.enrollTwoFactor({})),
    confirmTwoFactor: async (code) =>
      (await asHttp(() => call.confirmTwoFactor({ code }))).recovery_codes,
    disableTwoFactor: (password, code) =>
      asHttp(async () => void (await call.disableTwoFactor({ password, code }))),
    listTokens: (page, perPage) => asHttp(() => call.listTokens({ page, per_page: perPage })),
    createToken: (request) => asHttp(() => call.createToken(request)),
    updateToken: async (request) => (await asHttp(() => call.updateToken(request))).token!,
    revokeToken: (id) => asHttp(async () => void (await call.revokeToken({ id }))),
    regenerateToken: (request) => asHttp(() => call.regenerateToken(request)),
    getTokenPolicy: async () => (await asHttp(() => call.getTokenPolicy({}))).policy,
    setTokenPolicy: (request) => asHttp(() => call.setTokenPolicy(request)),
    listTenantTokens: (request) => asHttp(() => call.listTenantTokens(request)),
    revokeTenantToken: async (id) => {
      await asHttp(() => call.revokeTenantToken({ id }));
    },
    listMembers: (page, perPage) => asHttp(() => call.listMembers({ page, per_page: perPage })),
    reportLeakedTokens: (tokens, url) =>
      asHttp(async () => void (await call.reportLeakedTokens({ tokens, url }))),
    listTokenRequests: (request) => asHttp(() => call.listTokenRequests(request)),
    getTokenUsage: async (tokenId, days) =>
      (await asHttp(() => call.getTokenUsage({ token_id: tokenId, days }))).usage!,
    close: () => handle.close(),
  };
}
