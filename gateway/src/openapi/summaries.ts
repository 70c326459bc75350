/**
 * Summaries of the routes whose schema does not declare one yet, by route-table key. A route
 * should say `summary` (and `tags`) in its own schema; this list only covers the ones written
 * before the document was complete, and the document test fails for a route in neither place.
 */
export const SUMMARIES: Record<string, string> = {
  'GET /healthz': 'Liveness: the process answers',
  'GET /readyz': 'Readiness: identity, Redis and NATS reachable (other services reported)',
  'POST /api/integrations/parcel-tracking/test': 'Check a provider API key and read its quota',
  'POST /api/integrations/parcel-tracking/instances':
    "Connect the tenant's parcel-tracking instance",
  'GET /api/integrations/parcel-tracking/instances/:instance':
    'The instance with its dashboard (quota, transit analytics)',
  'PATCH /api/integrations/parcel-tracking/instances/:instance':
    'Update the instance (name, API key, settings)',
  'DELETE /api/integrations/parcel-tracking/instances/:instance':
    'Disconnect the instance (stops tracking at the provider)',
  'GET /api/integrations/parcel-tracking/instances/:instance/trackable-channels':
    'Sales channels whose shipments can be tracked',
  'GET /api/integrations/parcel-tracking/instances/:instance/activity':
    "The instance's activity log",
  'GET /api/integrations/parcel-tracking/instances/:instance/trackings':
    'Tracked shipments (links/meta pagination, filters)',
  'GET /api/integrations/parcel-tracking/instances/:instance/webhooks':
    'Provider webhooks received (links/meta pagination, filters)',
  'POST /webhooks/parcel-tracking/:token': 'Inbound provider webhook (the token is the credential)',
  'GET /api/alerts': 'In-app admin alerts with the unread count',
  'POST /api/alerts/:id/read': 'Mark an alert read',
  'POST /api/alerts/read-all': 'Mark every alert read',
  'POST /api/webhook-subscriptions': 'Subscribe a URL to events (returns the signing secret once)',
  'GET /api/webhook-subscriptions': 'List webhook subscriptions (flat pagination envelope)',
  'GET /api/webhook-subscriptions/:id': 'A webhook subscription',
  'PATCH /api/webhook-subscriptions/:id': 'Update a webhook subscription',
  'DELETE /api/webhook-subscriptions/:id': 'Delete a webhook subscription',
  'POST /api/webhook-subscriptions/:id/rotate-secret':
    'Rotate the signing secret (the old one stays valid for a while)',
  'GET /api/webhook-subscriptions/:id/deliveries': "A subscription's deliveries (filters)",
  'POST /api/webhook-subscriptions/:id/deliveries/:delivery_id/redeliver': 'Deliver an event again',
  'POST /api/webhook-subscriptions/:id/test': 'Send a test event to the subscription',
};
