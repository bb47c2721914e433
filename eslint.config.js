// One linter for the whole workspace: typescript-eslint (strict, no `any`), React hooks rules for
// the web app, and eslint-config-prettier last so formatting is left to Prettier alone.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/**
 * One no-restricted-imports rule per layer: a file under `files` may not import a module in a folder
 * named in `above` (by a relative path through that folder). Test files are left out.
 */
function layerRules(layers) {
  return layers.map(({ files, ignores = [], above }) => ({
    files,
    ignores: ['**/*.test.ts', '**/*.test.tsx', ...ignores],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `(^|/)(${above.join('|')})/`,
              message: `This layer may not import ${above.join(', ')}: imports run down the layers (docs/architecture.md).`,
            },
          ],
        },
      ],
    },
  }));
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/data/**',
      'apps/server/drizzle/**',
      'apps/server/vendor/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      'e2e/**',
      '**/test/**',
      '**/bench/**',
      '**/seed/**',
      '**/*.config.ts',
    ],
    rules: { 'no-console': 'off' },
  },
  // Layers: an import never runs back up (docs/architecture.md). Server, lowest first: infrastructure
  // (http, db, files, html, events, jobs, integrations, documents, config.ts) → auth → access →
  // features → the two doors (realtime, collaboration) → app.ts. Tests may cross layers.
  ...layerRules([
    {
      files: [
        'apps/server/src/{db,files,html,events,jobs,integrations,documents}/**/*.ts',
        'apps/server/src/config.ts',
      ],
      above: ['auth', 'access', 'features', 'realtime', 'collaboration'],
    },
    // http (AppError, logger, multipart parsing) is the floor of infrastructure: it imports none of it.
    {
      files: ['apps/server/src/http/**/*.ts'],
      ignores: ['apps/server/src/http/fuzz/**'],
      above: [
        'db',
        'files',
        'html',
        'events',
        'jobs',
        'integrations',
        'documents',
        'auth',
        'access',
        'features',
        'realtime',
        'collaboration',
      ],
    },
    { files: ['apps/server/src/auth/**/*.ts'], above: ['access', 'features', 'realtime', 'collaboration'] },
    { files: ['apps/server/src/access/**/*.ts'], above: ['features', 'realtime', 'collaboration'] },
    { files: ['apps/server/src/features/**/*.ts'], above: ['realtime', 'collaboration'] },
    // The two doors share what they need through the layers below, never through each other.
    { files: ['apps/server/src/realtime/**/*.ts'], above: ['collaboration'] },
    { files: ['apps/server/src/collaboration/**/*.ts'], above: ['realtime'] },
    // The web app: shared parts (components, the API client, stores) import no feature.
    { files: ['apps/web/src/{components,api,stores}/**/*.{ts,tsx}'], above: ['features'] },
  ]),
  {
    // Shared packages import neither app.
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@ris/(server|web)(/|$)|(^|/)apps/',
              message: 'packages/ are shared by the server and the web app: they import neither.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
