import { alertSchemas } from './schemas.js';
import { ALERTS_PERMISSION } from '@inventory/access';
import type { AlertReader } from '@inventory/contracts/activity/v1/activity.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasPermission } from '../../auth/grants.js';
import type { ActivityAdapter } from '../../adapters/activity.js';
import { flatEnvelope, pageMeta } from '../../http/pagination.js';
import { param } from '../../http/param-fields.js';
import { declareRoutes, handle } from '../../http/routes.js';
import { baseUrlOf } from '../parcel-tracking/base-url.js';
import { ALERTS_QUERY, alertsRequest } from './alerts-query.js';
import { presentAlert } from './present-alert.js';

export interface AlertRouteDeps {
  activity: ActivityAdapter;
  publicScheme: 'http' | 'https';
  publicPort: number;
}

/**
 * The web app only (a session). Every user reads the alerts addressed to them (their tokens'
 * expiry, revocation, leak reports); a user holding ALERTS_PERMISSION reads the tenant's inbox
 * too: quota, arrivals, deactivated subscriptions (ADR 0303).
 */
export const ALERT_ROUTES = declareRoutes({
  list: {
    method: 'GET',
    url: '/api/alerts',
    access: 'session',
    input: { query: ALERTS_QUERY },
  },
  markRead: {
    method: 'POST',
    url: '/api/alerts/:id/read',
    access: 'session',
    input: { params: { id: param.id('Alert not found.') } },
  },
  markAllRead: {
    method: 'POST',
    url: '/api/alerts/read-all',
    access: 'session',
  },
});

/** The signed-in user, and whether the tenant's inbox is theirs to read. */
function readerOf(request: FastifyRequest): AlertReader {
  const user = request.auth!.user;
  return { user_id: user.id, tenant_inbox: hasPermission(user, ALERTS_PERMISSION) };
}

/**
 * The web app's in-app admin alerts (the bell): list newest first in the flat envelope
 * with `unread_count`, mark one read, mark all read.
 */
export async function alertRoutes(app: FastifyInstance, deps: AlertRouteDeps): Promise<void> {
  handle(
    app,
    ALERT_ROUTES.list,
    { schema: alertSchemas.list },
    async (request, _reply, { query }) => {
      const response = await deps.activity.listAlerts({
        ...alertsRequest(query),
        reader: readerOf(request),
      });
      const info = response.page_info!;
      const [pathname, rawQuery = ''] = request.url.split('?');
      return flatEnvelope(
        response.alerts.map(presentAlert),
        pageMeta(info.current_page, info.per_page, info.total, response.alerts.length),
        `${baseUrlOf(request, deps.publicScheme, deps.publicPort)}${pathname}`,
        rawQuery,
        { unread_count: response.unread_count },
      );
    },
  );

  handle(
    app,
    ALERT_ROUTES.markRead,
    { schema: alertSchemas.markRead },
    async (request, _reply, { params }) => {
      const { alert } = await deps.activity.markAlertRead(readerOf(request), params.id);
      return { data: presentAlert(alert!) };
    },
  );

  handle(app, ALERT_ROUTES.markAllRead, { schema: alertSchemas.markAllRead }, async (request) => {
    const { marked } = await deps.activity.markAllAlertsRead(readerOf(request));
    return { data: { marked } };
  });
}
