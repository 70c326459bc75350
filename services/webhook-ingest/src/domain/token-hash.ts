import { createHash } from 'node:crypto';

/**
 * The registry keeps only SHA-256 of a webhook token: a database leak does not
 * hand out working webhook URLs, and a lookup stays one indexed equality match.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
