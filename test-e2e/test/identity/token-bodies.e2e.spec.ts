import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTenantWithToken,
  httpCall,
  loginSession,
  startSystem,
  type RunningSystem,
  type SessionFixture,
  type TenantFixture,
} from '../../src/index.js';

// Issue 18 item 10 (the personal-access-token part): a PATCH body that is not a JSON object
// changes nothing and says so; names with NUL characters are refused on create and edit.
describe('PATCH /api/personal-access-tokens/{id} with bodies that are not a JSON object', () => {
  let system: RunningSystem;
  let owner: TenantFixture;
  let session: SessionFixture;
  let tokenId: number;
  const path = () => `/api/personal-access-tokens/${tokenId}`;

  beforeAll(async () => {
    system = await startSystem();
    owner = await createTenantWithToken(system, { slug: 'pat-bodies' });
    session = await loginSession(owner, system.gatewayUrl);
    const created = await session.request('POST', '/api/personal-access-tokens', {
      name: 'original',
      scopes: ['orders:read'],
    });
    expect(created.status).toBe(201);
    tokenId = created.body.data.id;
  });
  afterAll(() => system?.stop());

  const unchanged = async () => {
    const list = await session.request('GET', '/api/personal-access-tokens?per_page=100');
    const token = list.body.data.find((row: { id: number }) => row.id === tokenId);
    expect(token).toMatchObject({ name: 'original', scopes: ['orders:read'] });
  };

  it.each([
    ['an array', [1, 2, 3]],
    ['null', null],
    ['a string', 'rename me'],
    ['a number', 7],
  ])('answers 422 for %s and changes nothing', async (_label, body) => {
    const response = await session.request('PATCH', path(), body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      message: 'The request body must be a JSON object.',
      errors: { body: ['The request body must be a JSON object.'] },
    });
    await unchanged();
  });

  it.each([
    ['text/plain', '{"name":"renamed"}'],
    ['application/x-www-form-urlencoded', 'name=renamed'],
  ])('answers 415 for a %s body and changes nothing', async (contentType, rawBody) => {
    const response = await httpCall(system.gatewayUrl, 'PATCH', path(), {
      host: owner.host,
      rawBody,
      headers: {
        cookie: session.cookie,
        'x-csrf-token': session.csrfToken,
        'content-type': contentType,
      },
    });
    expect(response.status).toBe(415);
    expect(response.body.code).toBe('unsupported_media_type');
    await unchanged();
  });

  it('refuses names with NUL characters on edit and on create', async () => {
    const edit = await session.request('PATCH', path(), { name: 'ci\u0000deploy' });
    expect(edit.status).toBe(422);
    expect(edit.body.errors.name).toEqual(['The name field must not contain control characters.']);
    await unchanged();
    const create = await session.request('POST', '/api/personal-access-tokens', {
      name: '\u0000',
    });
    expect(create.status).toBe(422);
    expect(create.body.errors.name).toEqual([
      'The name field must not contain control characters.',
    ]);
  });

  it('still edits with a JSON object, and an empty PATCH changes nothing', async () => {
    // A token of its own: the other tests check that theirs keeps its name.
    const created = await session.request('POST', '/api/personal-access-tokens', {
      name: 'original',
      scopes: ['orders:read'],
    });
    const ownPath = `/api/personal-access-tokens/${created.body.data.id}`;
    const empty = await session.request('PATCH', ownPath);
    expect(empty.status).toBe(200);
    expect(empty.body.data.name).toBe('original');
    const renamed = await session.request('PATCH', ownPath, { name: 'renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('renamed');
  });

  it.each(['1e9', '0', '-1', 'abc', '1.5', '2000000'])(
    'refuses page=%s on the token list and a token request history with 422',
    async (value) => {
      for (const list of ['/api/personal-access-tokens', `${path()}/requests`]) {
        const response = await session.request('GET', `${list}?page=${value}`);
        expect(response.status, list).toBe(422);
        expect(Object.keys(response.body.errors)).toEqual(['page']);
      }
    },
  );

  // Issue 18 item 10: filter values the history does not know are refused, not ignored.
  it.each([
    ['filter[status]=abc', 'filter.status'],
    ['filter[status]=200,999', 'filter.status'],
    ['filter[status]=6xx', 'filter.status'],
    ['filter[date_from]=13/45/2020', 'filter.date_from'],
    ['filter[date_to]=yesterday', 'filter.date_to'],
    ['per_page=abc', 'per_page'],
  ])('refuses %s on a token request history with 422', async (query, field) => {
    const response = await session.request('GET', `${path()}/requests?${query}`);
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.errors)).toEqual([field]);
  });
});
