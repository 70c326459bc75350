import { TtlCache, type SecretBox } from '@inventory/platform';
import type { InstanceRepository } from '../store/instance-repository.js';

/**
 * Instances' API keys as the signature check needs them, decrypted, kept per replica for a short
 * TTL: a push then costs no instance read and no decryption (ADR 0225). The key never leaves this
 * service. This replica's UpdateInstance and DeleteInstance drop the entry once they have
 * written (a load under way then is not kept); another replica's change is seen within the TTL,
 * and a signature that fails against a cached key is checked again against a fresh read, so a
 * push signed with a key just set elsewhere is never refused. Unknown instances are not kept.
 */
export class WebhookKeys {
  private readonly keys: TtlCache<string, string | null>;

  constructor(
    private readonly instances: InstanceRepository,
    private readonly secrets: SecretBox,
    options: { ttlMs: number; now?: () => number },
  ) {
    this.keys = new TtlCache({
      ttlMs: (key) => (key === null ? 0 : options.ttlMs),
      maxEntries: 10_000,
      now: options.now,
    });
  }

  /** The instance's key, null when the tenant has no such instance. */
  get(tenantId: string, instanceId: number): Promise<string | null> {
    return this.keys.getOrLoad(keyOf(tenantId, instanceId), () => this.load(tenantId, instanceId));
  }

  /** Whether `get` answered from the cache (its value may predate another replica's change). */
  isCached(tenantId: string, instanceId: number): boolean {
    return this.keys.peek(keyOf(tenantId, instanceId)) !== undefined;
  }

  /** Reads the instance again (the cached key may be stale), and keeps what it read. */
  async reload(tenantId: string, instanceId: number): Promise<string | null> {
    this.forget(tenantId, instanceId);
    return this.get(tenantId, instanceId);
  }

  /** The instance changed or went away. */
  forget(tenantId: string, instanceId: number): void {
    this.keys.delete(keyOf(tenantId, instanceId));
  }

  private async load(tenantId: string, instanceId: number): Promise<string | null> {
    const instance = await this.instances.findDirect(tenantId, instanceId);
    return instance ? this.secrets.decrypt(instance.api_key_encrypted) : null;
  }
}

const keyOf = (tenantId: string, instanceId: number) => `${tenantId}:${instanceId}`;
