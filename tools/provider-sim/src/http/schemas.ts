import { z } from 'zod';
import { MAIN_STATUSES } from '../domain/types.js';

/** Max numbers per call. */
export const MAX_ITEMS = 40;

export const numberItemSchema = z.object({
  number: z.string().trim().min(1),
  carrier: z.number().int().positive().optional(),
  tag: z.string().max(100).optional(),
});

export const itemsSchema = z.array(numberItemSchema);

export const addKeySchema = z.object({
  key: z.string().min(1).max(200),
  quota_total: z.number().int().nonnegative().optional(),
  max_track_daily: z.number().int().nonnegative().optional(),
  webhook_url: z.string().url().optional(),
});

export const setStatusSchema = z.object({
  status: z.enum(MAIN_STATUSES),
  sub_status: z.string().min(1).optional(),
  api_key: z.string().optional(),
});

export const pushSchema = z.object({
  url: z.string().url(),
  number: z.string().min(1),
  event: z.enum(['TRACKING_UPDATED', 'TRACKING_STOPPED']).optional(),
  api_key: z.string().optional(),
});

export const replaySchema = z.object({ url: z.string().url().optional() });

export const failSchema = z.object({
  endpoint: z.string().min(1),
  http_status: z.number().int().min(200).max(599).optional(),
  code: z.number().int().optional(),
  times: z.number().int().positive().max(1000).optional(),
  api_key: z.string().min(1).optional(),
});

export const authStyleSchema = z.object({
  style: z.enum(['http200', 'http401', 'alternate']),
});

export const advanceSchema = z.object({ api_key: z.string().optional() }).default({});

/** Short description of the first zod issue, e.g. `[0].number: Required`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
  return `${path.replace(/^\./, '') || 'body'}: ${issue.message}`;
}
