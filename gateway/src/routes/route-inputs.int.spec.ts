import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fetchDocument, withDocumentGateway } from '../../scripts/document-gateway.js';
import { inputSchema } from '../http/route-input.js';
import { pathParamsOf, type RouteDeclaration } from '../http/routes.js';
import { ROUTE_DECLARATIONS } from './route-table.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is read as plain JSON */

const ROUTES_DIR = fileURLToPath(new URL('.', import.meta.url));
/** The docs page's files are registered by @fastify/swagger-ui, not by a route module. */
const DOCS_UI = /^\/api\/docs/;
const declarations = (ROUTE_DECLARATIONS as Array<Record<string, RouteDeclaration>>)
  .flatMap((group) => Object.values(group))
  .filter((route) => !DOCS_UI.test(route.url));

/**
 * Where a route module may still touch the raw request: the inbound webhook keeps the
 * provider's bytes as they came (the signature is computed over them; webhook-ingest reads them).
 */
const RAW_READS: Record<string, RegExp> = {
  'webhooks/parcel-tracking.ts': /\brequest\.body\b/g,
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !/\.(spec|test-util)\.ts$/.test(path) ? [path] : [];
  });
}

describe('route inputs are declared, so what is validated is what is documented (ADR 0015)', () => {
  it('every declared route names each of its path parameters', () => {
    const missing = declarations.flatMap((route) => {
      const declared = Object.keys(route.input?.params ?? {});
      return pathParamsOf(route.url)
        .filter((name) => !declared.includes(name))
        .map((name) => `${route.method} ${route.url} :${name}`);
    });
    expect(missing).toEqual([]);
  });

  it('no route module reads the body, query or path parameters around its declaration', () => {
    const reads = sources(ROUTES_DIR).flatMap((path) => {
      const file = relative(ROUTES_DIR, path);
      const text = readFileSync(path, 'utf8').replace(RAW_READS[file] ?? /$^/, '');
      return [...text.matchAll(/\b(request|incoming|req)\.(body|query|params)\b/g)].map(
        (match) => `${file}: ${match[0]}`,
      );
    });
    expect(reads).toEqual([]);
  });

  it("the OpenAPI document's request schemas are the ones the declarations derive", async () => {
    const document = (await withDocumentGateway(fetchDocument)) as any;
    const resolve = (schema: any) =>
      schema?.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema;
    let compared = 0;
    for (const route of declarations) {
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      if (!operation || !route.input) continue;
      const derived = inputSchema(route.input);
      const key = `${route.method} ${route.url}`;
      const body = operation.requestBody?.content?.['application/json']?.schema;
      expect(resolve(body), key).toEqual(derived.body);
      for (const [place, schema] of [
        ['query', derived.querystring],
        ['path', derived.params],
      ] as const) {
        const documented = Object.fromEntries(
          (operation.parameters ?? [])
            .filter((parameter: any) => parameter.in === place)
            .map((parameter: any) => [
              parameter.name,
              parameter.description
                ? { ...parameter.schema, description: parameter.description }
                : parameter.schema,
            ]),
        );
        expect(documented, `${key} ${place}`).toEqual(
          JSON.parse(JSON.stringify(schema?.properties ?? {})),
        );
      }
      compared += 1;
    }
    // Every route that reads a body, query or path parameter is in the document (the web app's
    // files are hidden from it).
    expect(compared).toBeGreaterThanOrEqual(
      declarations.filter((route) => route.input && !route.url.startsWith('/app')).length,
    );
  }, 120_000);
});
