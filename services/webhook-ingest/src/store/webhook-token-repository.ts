import type { Connection } from 'mongoose';
import { GroupCommitQueue, TenantScopedRepository } from '@inventory/platform';
import { hashToken } from '../domain/token-hash.js';
import { webhookTokenModel, type WebhookTokenDocument } from './webhook-token.js';

/** The registry of inbound webhook tokens (`webhook_tokens`, ADR 0203). */
export class WebhookTokenRepository extends TenantScopedRepository<WebhookTokenDocument> {
  /**
   * Look-ups of inbound tokens made while one read is in flight go together in the next, one
   * `$in` (ADR 0228): pushes mostly name the same few tokens. Every push still reads the
   * registry as it is now (nothing is kept), so a removed token is unknown at once. The pushes
   * of one batch call are looked up together (ADR 0746).
   */
  private readonly lookups = new GroupCommitQueue<string, WebhookTokenDocument | null>(
    (hashes) => this.readByHashes(hashes),
    256,
    { gatherTurn: true },
  );

  constructor(connection: Connection) {
    super(webhookTokenModel(connection));
  }

  /** Throws a duplicate-key error when the token is already registered. */
  async register(
    tenantId: string,
    token: string,
    provider: string,
    instanceId: number,
  ): Promise<void> {
    await this.insertOne({
      token_hash: hashToken(token),
      tenant_id: tenantId,
      provider,
      integration_instance_id: instanceId,
      created_at: new Date(),
    });
  }

  async unregister(tenantId: string, token: string): Promise<boolean> {
    return (await this.deleteOne(tenantId, { token_hash: hashToken(token) })) === 1;
  }

  /**
   * The token's registration, whatever its tenant: an inbound call is identified by its token
   * alone (the tenant is what this answers).
   */
  resolveAcrossTenants(token: string): Promise<WebhookTokenDocument | null> {
    return this.lookups.add(hashToken(token));
  }

  private async readByHashes(hashes: string[]): Promise<Array<WebhookTokenDocument | null>> {
    // Through the driver: mongoose's query building showed in the profile (ADR 0229).
    const found = (await this.acrossTenants()
      .collection.find({ token_hash: { $in: [...new Set(hashes)] } })
      .toArray()) as unknown as WebhookTokenDocument[];
    const byHash = new Map(found.map((row) => [row.token_hash, row]));
    return hashes.map((hash) => byHash.get(hash) ?? null);
  }
}
