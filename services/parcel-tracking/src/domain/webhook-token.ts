import { randomBytes } from 'node:crypto';

/** The provider path segment in webhook URLs: {base_url}/webhooks/parcel-tracking/<token>. */
export const PROVIDER_SEGMENT = 'parcel-tracking';

/** `wh_` + 43 URL-safe characters (32 random bytes). */
export function mintWebhookToken(): string {
  return `wh_${randomBytes(32).toString('base64url')}`;
}

export function webhookPath(token: string): string {
  return `/webhooks/${PROVIDER_SEGMENT}/${token}`;
}
