import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export type ApiClient = Client<paths>;

export interface ApiClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The tenant's own address, `{base_url}` (e.g. `https://acme.example.com`). */
  baseUrl: string;
  /** A personal access token `<id>|<secret>`, sent as `Authorization: Bearer`. */
  token?: string;
}

/**
 * A client of the public API typed from the gateway's OpenAPI document (`npm run openapi`
 * regenerates `schema.ts`; `npm run openapi:check` fails when it is stale): paths, parameters,
 * bodies and answers are checked by TypeScript.
 */
export function createApiClient({
  baseUrl,
  token,
  headers,
  ...options
}: ApiClientOptions): ApiClient {
  return createClient<paths>({
    baseUrl,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(headers as Record<string, string> | undefined),
    },
    ...options,
  });
}
