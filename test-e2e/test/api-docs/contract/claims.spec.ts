import { describe, expect, it } from 'vitest';
import { documentedOperations } from '../../../src/fixtures/contract.js';
import { ALL_CLAIMS } from './claims.js';

const pairs = (claims: Record<string, number[]>) =>
  Object.entries(claims).flatMap(([operationId, statuses]) =>
    statuses.map((status) => `${operationId} ${status}`),
  );

/** No system needed: what the contract files claim against libs/api-client/openapi.json. */
describe('the contract files cover the document', () => {
  it('claim exactly the (operation, status) pairs of libs/api-client/openapi.json', () => {
    const documented = documentedOperations().flatMap(({ operationId, statuses }) =>
      statuses.map((status) => `${operationId} ${status}`),
    );
    const claimed = ALL_CLAIMS.flatMap(pairs);
    expect([...claimed].sort()).toEqual([...documented].sort());
  });

  it('claim each operation in one file only', () => {
    const operations = ALL_CLAIMS.flatMap((claims) => Object.keys(claims));
    expect(new Set(operations).size).toBe(operations.length);
  });
});
