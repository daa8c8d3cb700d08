import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'coverage/**', 'node_modules/**', 'src/api/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
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
    files: ['server/src/handlers/**/*.ts', 'server/src/http/**/*.ts'],
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
);
