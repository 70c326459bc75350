import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_NAMES } from './webhook-catalog.js';
import { webhookAsyncApiDocument, webhookEventTypes } from './webhook-event-types.js';

const strict2020 = () => addFormats.default(new Ajv2020({ strict: true, allErrors: true }));

describe('the published webhook event catalog', () => {
  it('lists the ten events, each data schema valid 2020-12 JSON Schema that accepts its own example', () => {
    const types = webhookEventTypes();
    expect(types.map((type) => type.name)).toEqual(WEBHOOK_EVENT_NAMES);
    const ajv = strict2020();
    for (const type of types) {
      const validate = ajv.compile(type.data_schema);
      const [example] = type.data_schema.examples as Record<string, unknown>[];
      expect(validate(example), `${type.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(validate({ ...example, id: 'one' }), type.name).toBe(false);
      expect(validate({ sku: 'no id' }), type.name).toBe(false);
    }
  });

  it('builds an AsyncAPI 3 document whose message payloads (draft-07) take the same examples in the envelope', () => {
    const document = webhookAsyncApiDocument() as {
      asyncapi: string;
      channels: Record<string, { messages: Record<string, { $ref: string }> }>;
      operations: Record<string, { action: string; channel: { $ref: string } }>;
      components: { messages: Record<string, { payload: object }> };
    };
    expect(document.asyncapi).toBe('3.0.0');
    expect(Object.keys(document.channels)).toEqual(WEBHOOK_EVENT_NAMES);
    expect(Object.values(document.operations).map((op) => op.action)).toEqual(
      WEBHOOK_EVENT_NAMES.map(() => 'send'),
    );
    const draft7 = addFormats.default(new Ajv({ strict: true, strictTypes: false }));
    draft7.addKeyword('x-required-scope');
    for (const type of webhookEventTypes()) {
      const validate = draft7.compile(document.components.messages[type.name]!.payload);
      const body = {
        event: type.name,
        delivery_id: '5f0c6a9e-2d7b-4c1e-9a51-0d1f1b0e7c11',
        occurred_at: '2026-01-02T03:04:05.006Z',
        data: (type.data_schema.examples as unknown[])[0],
      };
      expect(validate(body), draft7.errorsText(validate.errors)).toBe(true);
      expect(validate({ ...body, extra: 1 })).toBe(false);
      expect(validate({ ...body, event: 'ping' })).toBe(false);
    }
  });
});
