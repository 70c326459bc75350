import { describe, it } from 'vitest';
import { pathFor, send } from './harness.js';
import { ROUTES, isWrite, useHostileInput } from './hostile-suite.js';

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

  it('refuses odd ids in every path parameter without writing', () => {
    const { r, a, probes } = suite;
    const withIds = ROUTES.filter((route) => route.includes(':'));
    return suite.withoutWriting(() =>
      probes.perRoute(withIds, (route) =>
        ODD_IDS.map((id) =>
          probes.probe(
            `${route} [id ${id.slice(0, 20)}]`,
            () =>
              send(r, a, route, {
                path: pathFor(route, a, id),
                ...(isWrite(route) ? { body: JSON.stringify({ name: 'renamed' }) } : {}),
              }),
            'refused',
          ),
        ),
      ),
    );
  });
});
