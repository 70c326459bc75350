/**
 * The (operation, status) pairs each contract file exercises. The static test
 * (claims.spec.ts) holds their union equal to the document's, and each file checks at its end
 * that the answers it saw cover its own claims; a route added to the document fails until a file
 * claims and exercises its statuses.
 */
const GATED = [401, 403, 404, 422, 429, 503];
/** The same, for routes that read no body or query and refuse no state: 422 is not documented. */
const GATED_NO_422 = [401, 403, 404, 429, 503];

export const IDENTITY_CLAIMS: Record<string, number[]> = {
  postAuthLogin: [200, 400, 413, 415, 404, 422, 429, 503],
  postAuthLogout: [204, 400, 413, ...GATED_NO_422],
  getUser: [200, ...GATED_NO_422],
  getTenant: [200, ...GATED_NO_422],
  postUserTwoFactor: [200, 400, 413, ...GATED],
  deleteUserTwoFactor: [204, 400, 413, 415, ...GATED],
  postUserTwoFactorConfirm: [200, 400, 413, 415, ...GATED],
  getPersonalAccessTokens: [200, ...GATED],
  postPersonalAccessTokens: [201, 400, 409, 413, 415, ...GATED],
  patchPersonalAccessTokensById: [200, 400, 413, 415, ...GATED],
  deletePersonalAccessTokensById: [204, 400, 413, ...GATED_NO_422],
  getPersonalAccessTokensByIdRequests: [200, ...GATED],
  getPersonalAccessTokensByIdUsage: [200, ...GATED],
  postPersonalAccessTokensByIdRegenerate: [200, 400, 409, 413, 415, ...GATED],
  getTokenPolicy: [200, ...GATED_NO_422],
  putTokenPolicy: [200, 400, 413, 415, ...GATED],
  getOrganizationPersonalAccessTokens: [200, ...GATED],
  deleteOrganizationPersonalAccessTokensById: [204, 400, 413, ...GATED_NO_422],
  getOrganizationMembers: [200, ...GATED],
  postCredentialsRevoke: [202, 400, 413, 415, 404, 422, 429, 503],
};

export const PARCEL_TRACKING_CLAIMS: Record<string, number[]> = {
  postIntegrationsParcelTrackingTest: [200, 400, 413, 415, ...GATED],
  postIntegrationsParcelTrackingInstances: [201, 400, 409, 413, 415, ...GATED],
  getIntegrationsParcelTrackingInstances: [200, ...GATED_NO_422],
  getIntegrationsParcelTrackingInstancesByInstance: [200, ...GATED_NO_422],
  patchIntegrationsParcelTrackingInstancesByInstance: [200, 400, 413, 415, ...GATED],
  deleteIntegrationsParcelTrackingInstancesByInstance: [204, 400, 413, ...GATED_NO_422],
  getIntegrationsParcelTrackingInstancesByInstanceTrackableChannels: [200, ...GATED_NO_422],
  getIntegrationsParcelTrackingInstancesByInstanceActivity: [200, ...GATED],
  getIntegrationsParcelTrackingInstancesByInstanceTrackings: [200, ...GATED],
  getIntegrationsParcelTrackingInstancesByInstanceTrackingsByTracking: [200, ...GATED_NO_422],
  getIntegrationsParcelTrackingInstancesByInstanceWebhooks: [200, ...GATED],
  postIntegrationsParcelTrackingInstancesByInstanceWebhooksByWebhookReprocess: [
    202,
    400,
    413,
    ...GATED,
  ],
  postIntegrationsParcelTrackingInstancesByInstanceWebhooksReprocess: [
    202,
    400,
    409,
    413,
    ...GATED,
  ],
  getIntegrationsParcelTrackingInstancesByInstanceWebhooksReprocessJobsByJob: [
    200,
    ...GATED_NO_422,
  ],
  postWebhooksParcelTrackingByToken: [200, 401, 413, 404, 422, 503],
};

export const PLATFORM_CLAIMS: Record<string, number[]> = {
  getHealthz: [200],
  getReadyz: [200, 503],
  getAlerts: [200, ...GATED],
  postAlertsByIdRead: [200, 400, 413, ...GATED_NO_422],
  postAlertsReadAll: [200, 400, 413, ...GATED_NO_422],
  postWebhookSubscriptions: [201, 400, 409, 413, 415, ...GATED],
  getWebhookSubscriptions: [200, ...GATED],
  getWebhookSubscriptionsById: [200, ...GATED_NO_422],
  patchWebhookSubscriptionsById: [200, 400, 413, 415, ...GATED],
  deleteWebhookSubscriptionsById: [204, 400, 413, ...GATED_NO_422],
  postWebhookSubscriptionsByIdRotateSecret: [200, 400, 409, 413, ...GATED],
  getWebhookSubscriptionsByIdDeliveries: [200, ...GATED],
  getWebhookSubscriptionsByIdDeliveriesByDeliveryId: [200, ...GATED_NO_422],
  postWebhookSubscriptionsByIdDeliveriesByDeliveryIdRedeliver: [202, 400, 409, 413, ...GATED],
  postWebhookSubscriptionsByIdTest: [202, 400, 409, 413, ...GATED],
  postWebhookSubscriptionsByIdRecover: [202, 400, 409, 413, 415, ...GATED],
  getWebhookSubscriptionsByIdRecoverByJobId: [200, ...GATED_NO_422],
  postWebhookSubscriptionsByIdPause: [200, 400, 413, ...GATED_NO_422],
  postWebhookSubscriptionsByIdResume: [200, 400, 413, ...GATED_NO_422],
  getWebhookSubscriptionsByIdHealth: [200, ...GATED_NO_422],
  getWebhookEventTypes: [200, ...GATED_NO_422],
  getAsyncapiJson: [200],
  getV2Products: [200, ...GATED],
  getPurchaseInvoices: [200, ...GATED],
};

export const ALL_CLAIMS = [IDENTITY_CLAIMS, PARCEL_TRACKING_CLAIMS, PLATFORM_CLAIMS];
