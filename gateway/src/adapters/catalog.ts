import {
  CatalogServiceClient,
  type ListProductsRequest,
  type ListProductsResponse,
  type ListPurchaseInvoicesRequest,
  type ListPurchaseInvoicesResponse,
} from '@inventory/contracts/catalog/v1/catalog.js';
import { createGrpcClient, type GrpcClientHandle } from '@inventory/platform';
import { asHttp } from '../http/grpc-to-http.js';
import { FAIL_FAST_ON_A_STOPPED_SERVICE } from './downstream.js';

/** The gateway's one door to the catalog read models (products, purchase invoices). */
export interface CatalogAdapter {
  /** One page of the caller's tenant's products (tenant from the request context). Throws HttpError on refusal or outage. */
  listProducts(request: ListProductsRequest): Promise<ListProductsResponse>;
  /** One page of the caller's tenant's purchase invoices. Throws HttpError on refusal or outage. */
  listPurchaseInvoices(request: ListPurchaseInvoicesRequest): Promise<ListPurchaseInvoicesResponse>;
  close(): void;
  readonly handle: GrpcClientHandle<CatalogServiceClient>;
}

export function createCatalogAdapter(
  address: string,
  options: { deadlineMs?: number } = {},
): CatalogAdapter {
  const handle = createGrpcClient(CatalogServiceClient, address, {
    deadlineMs: options.deadlineMs ?? 5_000,
    // Read-only listings: open quickly, retry soon.
    breaker: { errorThresholdPercentage: 50, volumeThreshold: 5, resetTimeoutMs: 5_000 },
    ...FAIL_FAST_ON_A_STOPPED_SERVICE,
  });
  return {
    handle,
    // Service refusals and outages become the spec's envelopes (422, 503...) here, once.
    listProducts: (request) => asHttp(() => handle.call.listProducts(request)),
    listPurchaseInvoices: (request) => asHttp(() => handle.call.listPurchaseInvoices(request)),
    close: () => handle.close(),
  };
}
