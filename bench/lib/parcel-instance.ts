import { callJson } from './http.js';

/** Connects a parcel-tracking instance through the gateway, as a person does in the web app. */
export async function connectParcelInstance(
  gatewayUrl: string,
  headers: Record<string, string>,
  apiKey: string,
  name = 'Bench',
): Promise<{ id: number; webhook_url: string }> {
  const created = await callJson(
    gatewayUrl,
    'POST',
    '/api/integrations/parcel-tracking/instances',
    headers,
    { name, api_key: apiKey },
  );
  if (created.status !== 201)
    throw new Error(`connecting an instance: ${created.status} ${JSON.stringify(created.body)}`);
  return (created.body as { data: { id: number; webhook_url: string } }).data;
}
