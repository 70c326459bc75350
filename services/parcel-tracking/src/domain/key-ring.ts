/** A key the instance used before a rotation, kept (encrypted) while rows it registered may live. */
export interface RetiredKey {
  /** The key's fingerprint (`keyFingerprint`), as rows registered under it store it. */
  key_ref: string;
  api_key_encrypted: string;
  retired_at: Date;
}

/** The keys a stop may need: the current one and those retired by rotations (ADR 0213). */
export interface KeyRing {
  current: string;
  retired: Array<Pick<RetiredKey, 'key_ref' | 'api_key_encrypted'>>;
}

/**
 * The encrypted key that registered a row: the retired key of its `key_ref`, else the current
 * key (rows registered under it, and rows from before keys were recorded).
 */
export function encryptedKeyFor(ring: KeyRing, keyRef: string | null | undefined): string {
  return ring.retired.find((key) => key.key_ref === keyRef)?.api_key_encrypted ?? ring.current;
}

/** Items grouped by the encrypted key that registered them, so each group is stopped with it. */
export function groupByKey<T>(
  ring: KeyRing,
  items: T[],
  keyRefOf: (item: T) => string | null | undefined,
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = encryptedKeyFor(ring, keyRefOf(item));
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}

/** The retired keys after a rotation away from `previous`: one entry per key, newest last. */
export function retire(
  retired: RetiredKey[],
  previous: Omit<RetiredKey, 'retired_at'>,
  at: Date,
): RetiredKey[] {
  return [
    ...retired.filter((key) => key.key_ref !== previous.key_ref),
    { ...previous, retired_at: at },
  ];
}
