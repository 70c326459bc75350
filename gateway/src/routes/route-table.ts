import { routeTableOf } from '../http/routes.js';
import { OPENAPI_ROUTES } from '../openapi/index.js';
import { ALERT_ROUTES } from './alerts/alerts.js';
import { CATALOG_ROUTES } from './catalog/listings.js';
import { HEALTH_ROUTES } from './health.js';
import { LEAKED_TOKEN_ROUTES } from './identity/leaked-tokens.js';
import { MEMBER_ROUTES } from './identity/members.js';
import { SESSION_ROUTES } from './identity/session.js';
import { TENANT_ROUTES } from './identity/tenant.js';
import { TENANT_TOKEN_ROUTES } from './identity/tenant-tokens.js';
import { TOKEN_POLICY_ROUTES } from './identity/token-policy.js';
import { TOKEN_ROUTES } from './identity/tokens.js';
import { USER_ROUTES } from './identity/user.js';
import { INSTANCE_ACTIVITY_ROUTES } from './parcel-tracking/activity.js';
import { INSTANCE_ROUTES } from './parcel-tracking/instances.js';
import { TRACKINGS_ROUTES } from './parcel-tracking/trackings.js';
import { WEBHOOK_LOG_ROUTES } from './parcel-tracking/webhooks.js';
import { WEBHOOK_REPROCESS_ROUTES } from './parcel-tracking/webhook-reprocess.js';
import { WEB_APP_ROUTES } from './web-app/routes.js';
import { WEBHOOK_EVENT_TYPE_ROUTES } from './webhook-event-types/routes.js';
import {
  DELIVERY_ROUTES,
  HOLD_ROUTES,
  SUBSCRIPTION_HEALTH_ROUTES,
  SUBSCRIPTION_ROUTES,
} from './webhook-subscriptions/routes.js';
import { INBOUND_WEBHOOK_ROUTES } from './webhooks/parcel-tracking.js';

/**
 * THE route table, built from what each route module declares (method, path, access); keyed
 * `METHOD /route/pattern` as registered with Fastify. A route missing here cannot be registered
 * (`refuseUndeclaredRoutes`, app.ts). The access kinds are described in auth/route-access.ts.
 */
export const ROUTE_DECLARATIONS = [
  HEALTH_ROUTES,
  OPENAPI_ROUTES,
  SESSION_ROUTES,
  USER_ROUTES,
  TENANT_ROUTES,
  TOKEN_ROUTES,
  TOKEN_POLICY_ROUTES,
  TENANT_TOKEN_ROUTES,
  LEAKED_TOKEN_ROUTES,
  MEMBER_ROUTES,
  INSTANCE_ROUTES,
  INSTANCE_ACTIVITY_ROUTES,
  TRACKINGS_ROUTES,
  WEBHOOK_LOG_ROUTES,
  WEBHOOK_REPROCESS_ROUTES,
  ALERT_ROUTES,
  INBOUND_WEBHOOK_ROUTES,
  SUBSCRIPTION_ROUTES,
  DELIVERY_ROUTES,
  HOLD_ROUTES,
  SUBSCRIPTION_HEALTH_ROUTES,
  WEBHOOK_EVENT_TYPE_ROUTES,
  CATALOG_ROUTES,
  WEB_APP_ROUTES,
];

export const ROUTE_TABLE = routeTableOf(...ROUTE_DECLARATIONS);
