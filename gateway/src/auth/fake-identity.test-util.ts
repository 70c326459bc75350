import { Server, ServerCredentials, type ServerUnaryCall, type sendUnaryData } from '@grpc/grpc-js';
import {
  IdentityServiceService,
  type AuthToken,
  type GetTokenForAuthRequest,
  type GetTokenForAuthResponse,
} from '@inventory/contracts/identity/v1/identity.js';

/** Token 13's changes fail (after the change may have been made), as a lost answer would. */
export const FAILING_TOKEN_ID = 13;

type Answer = sendUnaryData<object>;
/** Answers a token change: an INTERNAL error for FAILING_TOKEN_ID, otherwise an empty success. */
const change = (id: number, callback: Answer) =>
  id === FAILING_TOKEN_ID
    ? callback({ code: 13, details: 'the answer was lost' })
    : callback(null, {});

/** A fake identity (a real gRPC server of the proto) whose tokens' permissions the test sets. */
export async function startFakeIdentity() {
  const permissions = new Map<number, string[]>();
  let loads = 0;
  const server = new Server();
  server.addService(IdentityServiceService, {
    getTokenForAuth: (
      call: ServerUnaryCall<GetTokenForAuthRequest, GetTokenForAuthResponse>,
      callback: sendUnaryData<GetTokenForAuthResponse>,
    ) => {
      loads++;
      const id = call.request.token_id;
      const token: AuthToken = {
        id,
        tenant_id: 't1',
        user_id: id < 100 ? 1 : 2,
        secret_hash: '',
        scopes: [],
        ip_allowlist: [],
        rate_limit_per_minute: 0,
        user_is_owner: false,
        user_permissions: permissions.get(id < 100 ? 1 : 2) ?? [],
      };
      callback(null, { token });
    },
    revokeToken: (call: ServerUnaryCall<{ id: number }, object>, callback: Answer) =>
      change(call.request.id, callback),
    revokeTenantToken: (call: ServerUnaryCall<{ id: number }, object>, callback: Answer) =>
      change(call.request.id, callback),
    updateToken: (call: ServerUnaryCall<{ id: number }, object>, callback: Answer) =>
      change(call.request.id, callback),
    regenerateToken: (call: ServerUnaryCall<{ id: number }, object>, callback: Answer) =>
      change(call.request.id, callback),
    reportLeakedTokens: (_call: ServerUnaryCall<{ tokens: string[] }, object>, callback: Answer) =>
      callback(null, {}),
  } as never);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    permissions,
    loads: () => loads,
    address: `127.0.0.1:${port}`,
    stop: () => server.forceShutdown(),
  };
}
