import { withScripts, type Redis } from '@inventory/platform';
import type { DeliveryDocument } from '../store/delivery.js';

/**
 * Takes a slot for each delivery id in order: one that already holds a slot of this minute keeps
 * it, a new one gets one while the minute has room. Returns 1 (may be sent) or 0 per id.
 */
const TAKE_SLOTS = `
local cap = tonumber(ARGV[1])
local admitted = {}
for index = 3, #ARGV do
  local id = ARGV[index]
  if redis.call('SISMEMBER', KEYS[1], id) == 1 then
    admitted[#admitted + 1] = 1
  elseif redis.call('SCARD', KEYS[1]) < cap then
    redis.call('SADD', KEYS[1], id)
    admitted[#admitted + 1] = 1
  else
    admitted[#admitted + 1] = 0
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return admitted
`;

interface SlotScripts {
  takeDeliverySlots(key: string, cap: number, ttlMs: number, ...ids: string[]): Promise<number[]>;
}

/**
 * What a delivery's cap slot is held under: its id and the attempts it had when its cycle began.
 * A cycle admitted again after a failed batch asks for the same slot; a redeliver, a new cycle
 * after attempts were made, asks for a new one.
 */
export function cycleSlotId(delivery: Pick<DeliveryDocument, 'delivery_id' | 'attempts'>): string {
  return `${delivery.delivery_id}:${delivery.attempts.length}`;
}

/** A recover job's slot for one delivery: a job carried on after a restart asks for it again. */
export function recoverSlotId(jobId: string, deliveryId: string): string {
  return `${deliveryId}:recover:${jobId}`;
}

/** A minute's set outlives the minute, so a late retry in it still finds its slot. */
const SLOTS_TTL_MS = 120_000;

/**
 * The per-tenant delivery cap (spec: 600 per minute per tenant), one set of delivery ids per
 * tenant and minute in Redis, so every replica counts against the same number. A slot belongs
 * to a delivery, not to an attempt to admit it (ADR 0420): a batch that failed after taking its
 * slots, and whose events come back, finds them still held; a command that timed out against a
 * frozen Redis and ran once it thawed adds nothing the retry does not. A replica takes the slots
 * of a whole batch in one script (ADR 0406); the script is atomic, so replicas taking slots
 * together still never admit more than the cap between them.
 */
export class RateCap {
  private readonly redis: Redis & SlotScripts;

  constructor(
    redis: Redis,
    private readonly perMinute: number,
    /** Which minute it is; tests pin it so a burst cannot straddle two windows. */
    private readonly clock: () => number = Date.now,
  ) {
    this.redis = withScripts<SlotScripts>(redis, {
      takeDeliverySlots: { numberOfKeys: 1, lua: TAKE_SLOTS },
    });
  }

  /** Whether each delivery may be sent in the tenant's current minute, in the order given. */
  async admit(tenantId: string, deliveryIds: string[], now = this.clock()): Promise<boolean[]> {
    if (deliveryIds.length === 0) return [];
    const minute = Math.floor(now / 60_000);
    const key = `outbound:slots:${tenantId}:${minute}`;
    const admitted = await this.redis.takeDeliverySlots(
      key,
      this.perMinute,
      SLOTS_TTL_MS,
      ...deliveryIds,
    );
    return admitted.map((flag) => flag === 1);
  }
}
