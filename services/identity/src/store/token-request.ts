import { Schema, type Connection, type Model } from 'mongoose';

export interface TokenRequestDocument {
  event_id: string;
  tenant_id: string;
  token_id: number;
  user_id: number;
  method: string;
  route: string;
  path: string;
  status: number;
  duration_ms: number;
  ip: string;
  user_agent: string;
  at: Date;
}

function buildSchema(retentionDays: number) {
  const schema = new Schema<TokenRequestDocument>(
    {
      // The entry's id, and also the row's `_id` (`insertMany`): the `_id` index makes a redelivered
      // entry a duplicate, where a unique index of its own cost every insert one more index write.
      event_id: { type: String, required: true },
      tenant_id: { type: String, required: true },
      token_id: { type: Number, required: true },
      user_id: { type: Number, required: true },
      method: { type: String, required: true },
      route: { type: String, default: '' },
      path: { type: String, default: '' },
      status: { type: Number, required: true },
      duration_ms: { type: Number, required: true },
      ip: { type: String, default: '' },
      user_agent: { type: String, default: '' },
      at: { type: Date, required: true },
    },
    { versionKey: false, collection: 'token_requests' },
  );
  // A token's history, newest first: `_id` last, as the list's tie-break, so the index serves the
  // whole sort and a page reads only its rows (with `at` alone, every request of the token was read
  // and sorted for each page).
  schema.index({ tenant_id: 1, token_id: 1, at: -1, _id: -1 });
  schema.index({ at: 1 }, { expireAfterSeconds: retentionDays * 24 * 3600 });
  return schema;
}

/** Indexes the schema no longer declares, dropped at start. */
export const RETIRED_TOKEN_REQUEST_INDEXES = ['tenant_id_1_token_id_1_at_-1'];

/**
 * The `token_requests` collection's one model (kept private by `TokenRequestRepository`); the TTL
 * index keeps a request `retentionDays`.
 */
export function tokenRequestModel(
  connection: Connection,
  retentionDays: number,
): Model<TokenRequestDocument> {
  return connection.model<TokenRequestDocument>('TokenRequest', buildSchema(retentionDays));
}
