import type { components } from '@inventory/api-client';

/**
 * The API's answers as the gateway documents them (`npm run openapi` writes them into
 * @inventory/api-client): a route whose answer changes fails this app's typecheck instead of
 * drifting from a copy. Types only: nothing of the client is bundled (lint keeps it so).
 */
type Schemas = components['schemas'];
type RowOf<List extends { data: readonly unknown[] }> = List['data'][number];

export type LoginAnswer = Schemas['PostAuthLoginResponse'];
export type UserAnswer = Schemas['GetUserResponse'];
export type CurrentUser = UserAnswer['data'];
/** The organisation's token policy (ADR 0120), and what replacing it answers. */
export type TokenPolicyAnswer = Schemas['GetTokenPolicyResponse'];
export type TokenPolicy = TokenPolicyAnswer['data'];
export type TokenPolicySaved = Schemas['PutTokenPolicyResponse']['data'];
/** Every member's tokens, for admins holding tokens:govern (ADR 0121). */
export type MemberTokenPage = Schemas['GetOrganizationPersonalAccessTokensResponse'];
export type MemberToken = MemberTokenPage['data'][number];
/** The tenant's members by id (ADR 0124): who a user id in a log is. */
export type MemberPage = Schemas['GetOrganizationMembersResponse'];
export type Member = MemberPage['data'][number];
/** The tenant of the address: its name for the header. */
export type TenantAnswer = Schemas['GetTenantResponse'];
export type TwoFactorSetupAnswer = Schemas['PostUserTwoFactorResponse'];
export type RecoveryCodesAnswer = Schemas['PostUserTwoFactorConfirmResponse'];

export type TokenPage = Schemas['GetPersonalAccessTokensResponse'];
export type Token = RowOf<TokenPage>;
export type TokenAnswer = Schemas['PatchPersonalAccessTokensByIdResponse'];
export type NewTokenAnswer = Schemas['PostPersonalAccessTokensResponse'];
/** The create answer: a token with its plaintext `token`, shown only then. */
export type NewToken = NewTokenAnswer['data'];
export type RequestPage = Schemas['GetPersonalAccessTokensByIdRequestsResponse'];
export type RequestRow = RequestPage['data'][number];
export type UsageAnswer = Schemas['GetPersonalAccessTokensByIdUsageResponse'];
export type Usage = UsageAnswer['data'];

export type KeyTestAnswer = Schemas['PostIntegrationsParcelTrackingTestResponse'];
export type ConnectAnswer = Schemas['PostIntegrationsParcelTrackingInstancesResponse'];
/** The tenant's instance, found without its id: a list of 0 or 1. */
export type InstanceListAnswer = Schemas['GetIntegrationsParcelTrackingInstancesResponse'];
export type InstanceAnswer = Schemas['GetIntegrationsParcelTrackingInstancesByInstanceResponse'];
/** The instance with its dashboard, as GET answers it. */
export type Instance = InstanceAnswer['data'];
export type ChannelScope = Instance['auto_track_channels'];
export type TransitStats = Omit<Instance['transit'], 'window_days' | 'carriers'>;
export type ChannelsAnswer =
  Schemas['GetIntegrationsParcelTrackingInstancesByInstanceTrackableChannelsResponse'];
export type Channel = ChannelsAnswer['data'][number];
type TrackingList = Schemas['GetIntegrationsParcelTrackingInstancesByInstanceTrackingsResponse'];
export type TrackingRow = RowOf<TrackingList>;
/** One shipment as its page reads it: the row with its checkpoint timeline (ADR 0216). */
export type TrackingDetail =
  Schemas['GetIntegrationsParcelTrackingInstancesByInstanceTrackingsByTrackingResponse']['data'];
export type Checkpoint = TrackingDetail['checkpoints'][number];
export type WebhookRow = RowOf<
  Schemas['GetIntegrationsParcelTrackingInstancesByInstanceWebhooksResponse']
>;
/** A webhook reprocess job and its progress (ADR 0230). */
export type ReprocessJobAnswer =
  Schemas['GetIntegrationsParcelTrackingInstancesByInstanceWebhooksReprocessJobsByJobResponse'];
export type ReprocessJob = ReprocessJobAnswer['data'];
export type ActivityRow = RowOf<
  Schemas['GetIntegrationsParcelTrackingInstancesByInstanceActivityResponse']
>;
/** A page of one of parcel-tracking's lists: they share one envelope (`links`/`meta`). */
export type LinksMetaPage<Row> = { data: Row[]; meta: TrackingList['meta'] };

export type AlertPage = Schemas['GetAlertsResponse'];
export type Alert = AlertPage['data'][number];

export type SubscriptionPage = Schemas['GetWebhookSubscriptionsResponse'];
export type SubscriptionAnswer = Schemas['GetWebhookSubscriptionsByIdResponse'];
export type Subscription = SubscriptionAnswer['data'];
/** The create answer: a subscription with its signing secret, shown only then. */
export type NewSubscriptionAnswer = Schemas['PostWebhookSubscriptionsResponse'];
export type RotatedSecretAnswer = Schemas['PostWebhookSubscriptionsByIdRotateSecretResponse'];
export type DeliveryPage = Schemas['GetWebhookSubscriptionsByIdDeliveriesResponse'];
export type Delivery = DeliveryPage['data'][number];
/** One delivery with the payload it sends. */
export type DeliveryAnswer = Schemas['GetWebhookSubscriptionsByIdDeliveriesByDeliveryIdResponse'];
export type RegeneratedTokenAnswer = Schemas['PostPersonalAccessTokensByIdRegenerateResponse'];
export type RecoverJobAnswer = Schemas['GetWebhookSubscriptionsByIdRecoverByJobIdResponse'];
export type SubscriptionHealthAnswer = Schemas['GetWebhookSubscriptionsByIdHealthResponse'];
export type HealthWindow = SubscriptionHealthAnswer['data']['last_24h'];
