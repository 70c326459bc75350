// One flat config for every project; each project's `lint` target points ESLint at its own folders.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import jsoncParser from 'jsonc-eslint-parser';
import tseslint from 'typescript-eslint';
import { createProjectGraphAsync } from '@nx/devkit';

// The Nx rules below (module boundaries, dependency checks) read the project graph that Nx caches
// in .nx/workspace-data, and skip themselves with a warning when there is none, as in a fresh
// clone. An Nx task (`nx run-many -t lint`) has computed it already; plain `npx eslint` (or an
// editor) computes or refreshes it here first.
if (!process.env.NX_TASK_TARGET_PROJECT) await createProjectGraphAsync({ exitOnError: false });

/**
 * Scopes: a project depends on its own scope and the shared libraries only (never on another
 * service's scope); the projects that assemble the whole system are scope:system (unconstrained).
 * scope:dev marks the development-only packages (the embedded MongoDB, local-infra, the test
 * kits, the provider simulator): no image ships them, so only tests, scripts and the dev tools
 * (scope:system) may import them (`withDev`), never a service's, the gateway's or a shared
 * library's runtime code.
 */
const scopeConstraints = ({ withDev }) => [
  ...[
    'gateway',
    'identity',
    'parcel-tracking',
    'webhook-ingest',
    'outbound-delivery',
    'activity',
    'catalog',
    'web',
  ].map((scope) => ({
    sourceTag: `scope:${scope}`,
    onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared', ...(withDev ? ['scope:dev'] : [])],
  })),
  {
    sourceTag: 'scope:shared',
    onlyDependOnLibsWithTags: ['scope:shared', ...(withDev ? ['scope:dev'] : [])],
  },
  { sourceTag: 'scope:dev', onlyDependOnLibsWithTags: ['scope:dev', 'scope:shared'] },
];

/** Files that run only in development: tests, their helpers in src, and build scripts. */
const DEV_FILES = [
  '**/test/**/*.ts',
  '**/*.spec.ts',
  '**/*.spec.tsx',
  '**/*.test-util.ts',
  '**/scripts/**/*.ts',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'libs/contracts/src/gen/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs,ts,tsx,mts,cts}'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  ...nx.configs['flat/base'],
  {
    // A service never imports another service's internals; libraries never import services or the gateway.
    files: ['**/*.ts', '**/*.tsx'],
    // Each project's vitest config shares the root test settings by relative import.
    ignores: ['**/vitest.config.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // Node code, no bundles: a dynamic import only defers loading (the admin CLI's), so the
          // same library may be imported statically elsewhere.
          checkDynamicDependenciesExceptions: ['@inventory/**'],
          depConstraints: [
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            // The web app imports the rules it shows (browser-safe entries only) and nothing else.
            { sourceTag: 'type:webapp', onlyDependOnLibsWithTags: ['type:lib'] },
            {
              sourceTag: 'type:tool',
              onlyDependOnLibsWithTags: ['type:lib', 'type:tool', 'type:service'],
            },
            {
              sourceTag: 'type:e2e',
              onlyDependOnLibsWithTags: ['type:lib', 'type:tool', 'type:service', 'type:app'],
            },
            {
              sourceTag: 'type:bench',
              onlyDependOnLibsWithTags: [
                'type:lib',
                'type:tool',
                'type:service',
                'type:app',
                'type:e2e',
              ],
            },
            ...scopeConstraints({ withDev: false }),
          ],
        },
      ],
    },
  },
  {
    // Tests may start the provider simulator (a tool) and use the development-only libraries; a
    // test of one service talks to another over its gRPC API or a fake of its contract, never by
    // importing it (scopes as above).
    files: DEV_FILES,
    ignores: ['**/vitest.config.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          // Node code, no bundles: a dynamic import only defers loading (the admin CLI's), so the
          // same library may be imported statically elsewhere.
          checkDynamicDependenciesExceptions: ['@inventory/**'],
          depConstraints: [
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib', 'type:tool'] },
            { sourceTag: 'type:webapp', onlyDependOnLibsWithTags: ['type:lib'] },
            {
              sourceTag: 'type:tool',
              onlyDependOnLibsWithTags: ['type:lib', 'type:tool', 'type:service'],
            },
            {
              sourceTag: 'type:e2e',
              onlyDependOnLibsWithTags: ['type:lib', 'type:tool', 'type:service', 'type:app'],
            },
            ...scopeConstraints({ withDev: true }),
          ],
        },
      ],
    },
  },
  {
    // MongoDB is reached through mongoose only in a service's store/ (repositories own their
    // models) and in the platform's own stores; everything else calls a repository.
    files: ['services/**/*.ts', 'gateway/**/*.ts', 'libs/platform/src/**/*.ts'],
    ignores: [
      'services/*/src/store/**',
      'libs/platform/src/mongo/**',
      'libs/platform/src/nats/outbox.ts',
      'libs/platform/src/nats/processed-events.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'mongoose',
              message: 'Only store/ talks to MongoDB: add a repository method instead.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // A repository reaches its model unscoped only through `acrossTenants()` (in methods named
    // `…AcrossTenants`) or `driverCollection()` (bulk writes scoped row by row), so every
    // cross-tenant query can be found by name (ADR 0011).
    files: ['services/*/src/store/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.type='ThisExpression'][property.name='model']",
          message:
            'Use the scoped helpers of TenantScopedRepository; cross-tenant work goes through this.acrossTenants() in a method named …AcrossTenants.',
        },
      ],
    },
  },
  {
    // The web app runs in a browser: of the workspace it imports only entries with no Node code,
    // and the API's answer types from the generated client (types only: its own api() sends the
    // session cookie and CSRF header, and the bundle stays as small).
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@inventory/(?!(rules|access|events/browser|api-client)$)',
              message:
                'The browser bundles only @inventory/rules, @inventory/access and @inventory/events/browser; add a browser-safe entry to the owner instead of copying.',
            },
            {
              regex: '^@inventory/api-client$',
              allowTypeImports: true,
              message:
                'The web app takes only the API types from @inventory/api-client (import type, named in src/api-types.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The gateway registers a route only through `handle(app, DECLARED.route, ...)` (http/routes.ts),
    // so its path and access are written once, in the module's `declareRoutes` (ADR 0014).
    files: ['gateway/src/**/*.ts'],
    ignores: ['gateway/src/**/*.spec.ts', 'gateway/src/http/routes.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.object.name='app'][callee.property.name=/^(get|head|post|put|patch|delete|options|all|route)$/]",
          message:
            'Declare the route with declareRoutes() in its module and register it with handle() (http/routes.ts).',
        },
      ],
    },
  },
  {
    // A test waits for a condition (eventually / waitFor from @inventory/local-infra,
    // expect.poll) or moves an injected clock; a sleep races a loaded machine (docs/CONVENTIONS.md).
    // The few timers that are the subject (a slow peer, a task's own duration) say so in an
    // eslint-disable comment.
    files: ['**/test/**/*.ts', '**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='setTimeout']",
          message:
            'No sleeps in tests: poll with eventually()/waitFor() from @inventory/local-infra or expect.poll, or inject the clock.',
        },
        {
          selector: "CallExpression[callee.property.name='setTimeout']",
          message:
            'No sleeps in tests: poll with eventually()/waitFor() from @inventory/local-infra or expect.poll, or inject the clock.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'node:timers/promises',
              message:
                'No sleeps in tests: poll with eventually()/waitFor() from @inventory/local-infra or expect.poll, or inject the clock.',
            },
            {
              name: 'timers/promises',
              message:
                'No sleeps in tests: poll with eventually()/waitFor() from @inventory/local-infra or expect.poll, or inject the clock.',
            },
          ],
        },
      ],
    },
  },
  {
    // Each package's package.json declares what its runtime code imports (dependencies), with
    // versions the lockfile installs; what only tests, scripts and build configs import is a
    // devDependency, which this rule does not check. Workspace packages are declared as "*".
    files: ['**/package.json'],
    languageOptions: { parser: jsoncParser },
    rules: {
      '@nx/dependency-checks': [
        'error',
        {
          ignoredFiles: [
            '{projectRoot}/**/*.test-util.ts',
            '{projectRoot}/scripts/**/*',
            '{projectRoot}/vite.config.ts',
          ],
        },
      ],
    },
  },
  {
    files: ['tools/**', 'bench/**', '**/cli/**', '**/*.mjs'],
    rules: { 'no-console': 'off' },
  },
);
