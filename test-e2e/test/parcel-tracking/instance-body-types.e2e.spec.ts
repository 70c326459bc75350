import { describe, expect, it } from 'vitest';
import { httpCall, type HttpResponse } from '../../src/index.js';
import { PREFIX, validCreate } from './harness.js';
import { useParcelSystem } from './instance-suite.js';

const suite = useParcelSystem();
const NOT_AN_OBJECT = {
  message: 'The request body must be a JSON object.',
  errors: { body: ['The request body must be a JSON object.'] },
};

/**
 * Issue #18 item 10: a write body that is not a JSON object is refused (422, or 415 for
 * another content type) instead of an empty update answering 200; names with NUL are refused.
 */
describe('parcel-tracking instance writes refuse bodies that are not JSON objects', () => {
  let sent = 0;
  let serverErrors = 0;
  const counted = async (call: Promise<HttpResponse>) => {
    const response = await call;
    sent++;
    if (response.status >= 500) serverErrors++;
    return response;
  };

  it('PATCH with [1,2,3], null, a string, a number, a boolean or no body is 422 and changes nothing', async () => {
    const { t, instance } = await suite.connected();
    const path = `${PREFIX}/instances/${instance.id}`;
    for (const body of [[1, 2, 3], null, 'Renamed', 42, true]) {
      const response = await counted(t.request('PATCH', path, body));
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body, JSON.stringify(body)).toEqual(NOT_AN_OBJECT);
    }
    const noBody = await counted(t.request('PATCH', path));
    expect(noBody.status).toBe(422);
    expect(noBody.body).toEqual(NOT_AN_OBJECT);
    expect((await t.request('GET', path)).body.data.name).toBe(instance.name);
  });

  it('PATCH and POST with a text/plain body are 415 in the envelope', async () => {
    const { t, instance } = await suite.connected();
    for (const [method, path] of [
      ['PATCH', `${PREFIX}/instances/${instance.id}`],
      ['POST', `${PREFIX}/instances`],
    ] as const) {
      const response = await counted(
        httpCall(suite.p.system.gatewayUrl, method, path, {
          host: t.host,
          headers: { authorization: `Bearer ${t.token}`, 'content-type': 'text/plain' },
          rawBody: '{"name":"Renamed"}',
        }),
      );
      expect(response.status, method).toBe(415);
      expect(response.body, method).toEqual({
        message: 'The request body must be JSON (Content-Type: application/json).',
        code: 'unsupported_media_type',
      });
    }
    expect((await t.request('GET', `${PREFIX}/instances/${instance.id}`)).body.data.name).toBe(
      instance.name,
    );
  });

  it('POST with a body that is not an object is 422 and creates nothing', async () => {
    const t = await suite.p.tenant();
    for (const body of [[validCreate()], null, 'x']) {
      const response = await counted(t.request('POST', `${PREFIX}/instances`, body));
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body).toEqual(NOT_AN_OBJECT);
    }
    // No partial write: the tenant's one instance can still be created.
    expect((await t.request('POST', `${PREFIX}/instances`, validCreate())).status).toBe(201);
  });

  it('channel keys named __proto__, constructor or prototype are refused, never dropped in silence', async () => {
    const { t, instance } = await suite.connected();
    const patch = (rawBody: string) =>
      counted(
        httpCall(suite.p.system.gatewayUrl, 'PATCH', `${PREFIX}/instances/${instance.id}`, {
          host: t.host,
          headers: { authorization: `Bearer ${t.token}` },
          rawBody,
        }),
      );
    const proto = await patch(
      '{"auto_track_channels":{"channels":{"5":{"sub_channels":{"__proto__":true}}}}}',
    );
    // The JSON parser refuses a __proto__ key anywhere in a body (secure-json-parse).
    expect(proto.status).toBe(400);
    expect(proto.body).toEqual({
      message: 'The request body is not valid JSON.',
      code: 'malformed_json',
    });
    const response = await patch(
      '{"auto_track_channels":{"channels":{"constructor":{"enabled":true},"5":{"sub_channels":{"prototype":true}}}}}',
    );
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual({
      'auto_track_channels.channels.constructor': [
        'Channel keys must be sales channel ids (positive integers).',
      ],
      'auto_track_channels.channels.5.sub_channels.prototype': [
        'Sub-channel keys must be sub-channel ids (positive integers).',
      ],
    });
    const after = await t.request('GET', `${PREFIX}/instances/${instance.id}`);
    expect(after.body.data.auto_track_channels.channels).toEqual({});
  });

  it('names with NUL characters are refused on create and update', async () => {
    const fresh = await suite.p.tenant();
    const created = await counted(
      fresh.request('POST', `${PREFIX}/instances`, validCreate({ name: 'Parcels\u0000evil' })),
    );
    expect(created.status).toBe(422);
    expect(created.body.errors.name).toEqual([
      'The name field must not contain control characters.',
    ]);

    const { t, instance } = await suite.connected();
    const updated = await counted(
      t.request('PATCH', `${PREFIX}/instances/${instance.id}`, { name: 'a\u0000b' }),
    );
    expect(updated.status).toBe(422);
    expect(updated.body.errors.name).toEqual([
      'The name field must not contain control characters.',
    ]);
    expect((await t.request('GET', `${PREFIX}/instances/${instance.id}`)).body.data.name).toBe(
      instance.name,
    );

    expect(serverErrors).toBe(0);
    process.stdout.write(
      `instance-body-types: hostile requests sent ${sent}, 5xx seen ${serverErrors}\n`,
    );
  });
});
