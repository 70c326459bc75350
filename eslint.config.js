// One flat config for every project; each project's `lint` target points ESLint at its own folders.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'libs/contracts/src/gen/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
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
    files: ['**/*.ts'],
    // Each project's vitest config shares the root test settings by relative import.
    ignores: ['**/vitest.config.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          depConstraints: [
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
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
          ],
        },
      ],
    },
  },
  {
    // Tests may start the provider simulator and the services a service talks to (never import their internals).
    files: ['**/test/**/*.ts', '**/*.spec.ts'],
    ignores: ['**/vitest.config.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          depConstraints: [
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            {
              sourceTag: 'type:service',
              onlyDependOnLibsWithTags: ['type:lib', 'type:tool', 'type:service'],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:lib', 'type:tool', 'type:service'],
            },
            {
              sourceTag: 'type:tool',
              onlyDependOnLibsWithTags: ['type:lib', 'type:tool', 'type:service'],
            },
            {
              sourceTag: 'type:e2e',
              onlyDependOnLibsWithTags: ['type:lib', 'type:tool', 'type:service', 'type:app'],
            },
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
