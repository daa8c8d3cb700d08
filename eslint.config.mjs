import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

// The portal's features (src/features/<name>/), each a zone of its own for the rule below.
const FEATURES = path.join(import.meta.dirname, 'src/features');
const features = existsSync(FEATURES)
  ? readdirSync(FEATURES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'coverage/**', 'node_modules/**', 'src/api/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
      // Said, not inferred: one ESLint process may lint several projects, each with this file
      // (scripts/lint.test.ts lints its scratch trees in one run), and then the parser cannot guess.
      parserOptions: { tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Typed hooks only: raw react-redux hooks lose the RootState / AppDispatch types.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-redux',
              importNames: ['useSelector', 'useDispatch'],
              message: 'Use useAppSelector / useAppDispatch from src/app/hooks.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/app/hooks.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  // No import cycles anywhere (type-only imports aside: they vanish at run time). The TypeScript
  // preset comes first: without it no-cycle follows no import into a .ts file and silently passes.
  // Its resolver (eslint-import-resolver-typescript) is not installed: Node's resolution with
  // TypeScript's extensions suits every tsconfig here (no path aliases). ignoreExternal keeps the
  // rule out of node_modules, which would otherwise cost minutes per run.
  importX.flatConfigs.typescript,
  {
    files: ['{src,server,scripts,test}/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'],
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // The portal's features stand alone: one imports nothing of another (a piece two features use
  // moves to src/components, src/lib or src/app; the session is in src/app/session), and the
  // shared folders import no feature. Only the app's wiring (src/app: the router) loads features.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            ...features.map((feature) => ({
              target: `src/features/${feature}`,
              from: 'src/features',
              except: [`./${feature}`],
              message:
                'A feature imports no other feature: move what both use to src/components, src/lib or src/app.',
            })),
            {
              target: ['src/components', 'src/lib', 'src/shared', 'src/api'],
              from: 'src/features',
              message: 'Shared code imports no feature.',
            },
            {
              target: 'src/shared',
              from: ['src/app', 'src/api', 'src/components', 'src/lib', 'server'],
              message:
                'src/shared holds pure rules the portal and the server both apply: it imports neither.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Server layering: handlers (and the HTTP layer's security handlers) translate HTTP to domain
  // calls and back; queries and the rules around them live in server/src/domain (or db/ query
  // modules), never in a handler.
  { ignores: ['server/src/generated/**'] },
  {
    files: [
      'server/src/portal/**/*.ts',
      'server/src/http/**/*.ts',
      'server/src/checkout/**/*.{ts,tsx}',
    ],
    ignores: ['server/src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', message: 'Handlers do not query: call a domain function.' }],
          patterns: [
            {
              group: ['**/db/*'],
              allowTypeImports: true,
              message: 'Handlers do not query: call a domain function.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'MemberExpression[property.name=/^(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|transaction|with|executeQuery)$/]',
          message: 'Handlers do not query: move the query and its rule into a domain function.',
        },
      ],
    },
  },
  {
    files: ['server/src/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/http/*', 'fastify'],
              allowTypeImports: true,
              message: 'The domain knows no HTTP: throw a domain error (domain/errors.ts).',
            },
          ],
        },
      ],
    },
  },
  // Server layering: arrows only run down. Entries (main, admin, cluster, the signer's main) sit on
  // top; the two APIs (portal/, gateway/) and the job list (jobs/index.ts) call the domain; the
  // domain calls db/. The domain knows no HTTP, no API, no job but the queue it adds jobs to in its
  // own transactions, no signer code beyond the client, and no seed data. Nothing outside the
  // signer's entry imports its server part (the seed-making code stays out of the web process).
  {
    files: ['server/src/**/*.{ts,tsx}'],
    ignores: ['server/src/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: path.join(import.meta.dirname, 'server/src'),
          zones: [
            {
              target: './domain',
              from: [
                './http',
                './portal',
                './gateway',
                './checkout',
                './signer/server',
                './seed',
                './admin',
                './app.ts',
                './main.ts',
                './cluster.ts',
                './runtime.ts',
              ],
              message: 'The domain imports no HTTP, API, entry, signer server or seed code.',
            },
            {
              target: './domain',
              from: './jobs',
              except: ['./queue.ts'],
              message: 'The domain adds jobs (jobs/queue.ts) but knows no job list or worker.',
            },
            {
              target: './db',
              from: ['./domain', './http', './portal', './gateway', './jobs', './signer', './seed'],
              message: 'db/ is the bottom layer: it imports nothing above it.',
            },
            {
              target: './http',
              from: './jobs',
              except: ['./queue.ts'],
              message: 'http/ may read the queue (metrics) but knows no job list or worker.',
            },
            {
              target: './http',
              from: ['./portal', './gateway', './checkout', './signer/server', './seed', './admin'],
              message:
                'http/ is plumbing both APIs share: it imports neither API nor what runs them.',
            },
            {
              target: './portal',
              from: ['./gateway', './checkout', './signer/server', './admin'],
              message:
                'The portal API imports no gateway, checkout, signer server or operator code.',
            },
            {
              target: './gateway',
              from: ['./portal', './checkout', './signer/server', './admin'],
              message:
                'The gateway API imports no portal, checkout, signer server or operator code.',
            },
            {
              target: './checkout',
              from: ['./portal', './gateway', './signer/server', './admin'],
              message: 'The checkout page imports no API, signer server or operator code.',
            },
            {
              target: [
                './signer/client',
                './jobs',
                './seed',
                './admin',
                './app.ts',
                './main.ts',
                './cluster.ts',
                './runtime.ts',
              ],
              from: './signer/server',
              message:
                "Only the signer's entry uses its server part (the seed stays out of the web process).",
            },
          ],
        },
      ],
    },
  },
);
