import type { Logger } from '@inventory/platform';
import { toProductSnapshot, type ProductRecordInput } from '../domain/product.js';
import { isRecordId, versionOf } from '../domain/record-version.js';
import type { ProductRepository } from '../store/product-repository.js';

export type ProductChange =
  | { kind: 'snapshot'; record: ProductRecordInput | undefined; version: number }
  | { kind: 'deleted'; productId: number; version: number };

/**
 * Applies one product event to the read model. Older-than-held events are ignored and deletes
 * leave tombstones, so redelivery and any arrival order converge on the newest state. A record
 * that can never be shown is logged and dropped (retrying cannot fix it).
 */
export class ApplyProductChange {
  constructor(
    private readonly products: ProductRepository,
    private readonly logger: Logger,
  ) {}

  async execute(tenantId: string, occurredAt: Date, change: ProductChange): Promise<boolean> {
    const version = versionOf(change.version, occurredAt);
    if (change.kind === 'deleted') {
      if (!isRecordId(change.productId)) return this.drop(tenantId, ['product_id is not positive']);
      return this.products.remove(tenantId, change.productId, version);
    }
    if (!change.record) return this.drop(tenantId, ['the event has no product']);
    const checked = toProductSnapshot(change.record, occurredAt);
    if ('problems' in checked) return this.drop(tenantId, checked.problems);
    return this.products.put(tenantId, checked.product, version);
  }

  private drop(tenantId: string, problems: string[]): false {
    this.logger.warn({ tenant_id: tenantId, problems }, 'product event dropped');
    return false;
  }
}
