import type { FastifyInstance, FastifyReply } from 'fastify';
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { notFoundBody } from '../../http/envelopes.js';
import { HttpError } from '../../http/http-error.js';
import { param } from '../../http/param-fields.js';
import { declareRoutes, handle } from '../../http/routes.js';
import {
  CONTENT_TYPES,
  IMMUTABLE,
  REVALIDATE,
  WEB_APP_SECURITY_HEADERS,
} from './security-headers.js';

const WEB_APP_PREFIX = '/app';

/**
 * The web app's static files (issue #17): the page is public on each tenant host; the API calls
 * it makes carry the session cookie and the CSRF token.
 */
export const WEB_APP_ROUTES = declareRoutes({
  index: { method: 'GET', url: WEB_APP_PREFIX, access: 'public' },
  files: {
    method: 'GET',
    url: `${WEB_APP_PREFIX}/*`,
    access: 'public',
    input: { params: { '*': param.rest() } },
  },
});

/** apps/web/dist of this checkout: the same depth from gateway/src and gateway/dist. */
const DEFAULT_WEB_APP_DIR = fileURLToPath(new URL('../../../../apps/web/dist', import.meta.url));

export interface WebAppRouteOptions {
  /** The built web app (`npm run build`); missing is fine: /app then says it is not built. */
  webAppDir?: string;
}

const NOT_BUILT =
  'The web app is not built on this server. Run `npm run build` (or `npx nx build @inventory/web`).';

/**
 * The web app as static files on every tenant host under /app (the route table makes
 * these public: the page is public, the API calls it makes carry the session).
 * Known files are served as they are; any other path below /app is a client-side
 * route and gets index.html, except under /app/assets where a missing file is a 404.
 */
export async function webAppRoutes(
  app: FastifyInstance,
  options: WebAppRouteOptions,
): Promise<void> {
  const root = resolve(options.webAppDir ?? DEFAULT_WEB_APP_DIR);

  const send = async (reply: FastifyReply, file: string, cacheControl: string) => {
    const body = await readFile(file);
    return reply
      .headers(WEB_APP_SECURITY_HEADERS)
      .header('cache-control', cacheControl)
      .type(CONTENT_TYPES[extname(file)] ?? 'application/octet-stream')
      .send(body);
  };

  const isFile = async (file: string) => (await stat(file).catch(() => undefined))?.isFile();

  const serve = async (relative: string, reply: FastifyReply) => {
    const file = resolve(root, relative);
    const inside = file.startsWith(root + sep);
    if (inside && relative !== 'index.html' && (await isFile(file)))
      return send(reply, file, relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
    if (!inside || relative.startsWith('assets/'))
      throw new HttpError(404, notFoundBody('File not found.'));
    const index = resolve(root, 'index.html');
    if (!(await isFile(index))) throw new HttpError(503, { message: NOT_BUILT });
    return send(reply, index, REVALIDATE);
  };

  handle(app, WEB_APP_ROUTES.index, { schema: { hide: true } }, async (_request, reply) =>
    serve('index.html', reply),
  );
  handle(
    app,
    WEB_APP_ROUTES.files,
    { schema: { hide: true } },
    async (_request, reply, { params }) => {
      const rest = params['*'];
      return serve(rest === '' ? 'index.html' : rest, reply);
    },
  );
}
