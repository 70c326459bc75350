import { describe, expect, it } from 'vitest';
import { pathFor, send } from './harness.js';
import { ROUTES, isWrite, useHostileInput } from './hostile-suite.js';
import { snapshotOf } from './snapshot.js';

const ODD_IDS = [
  '-1',
  '0',
  '1e9',
  'abc',
  '9'.repeat(300),
  '%00',
  '1.5',
  '%20',
  '0x10',
  '..%2F..',
  'null',
];

describe('hostile ids in every path parameter of the route table', () => {
  const suite = useHostileInput('ids');

  it('refuses odd ids in every path parameter without writing', async () => {
    const { r, a, probes } = suite;
    const before = await snapshotOf(r, a);
    const problems: string[] = [];
    for (const route of ROUTES.filter((name) => name.includes(':'))) {
      const write = isWrite(route);
      problems.push(
        ...(await probes.collect(
          ODD_IDS.map((id) =>
            probes.probe(
              `${route} [id ${id.slice(0, 20)}]`,
              () =>
                send(r, a, route, {
                  path: pathFor(route, a, id),
                  ...(write ? { body: JSON.stringify({ name: 'renamed' }) } : {}),
                }),
              'refused',
            ),
          ),
        )),
      );
    }
    expect({ problems, state: await snapshotOf(r, a) }).toEqual({ problems: [], state: before });
  });
});
