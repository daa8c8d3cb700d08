/** @jest-config-loader esbuild-register */
import { availableParallelism } from 'node:os';
import type { Config } from 'jest';
import { bundledDeps } from './server/test/bundledDeps';

// ESM-only packages that Jest's CommonJS runtime must have compiled.
const esmPackages = [
  '@noble',
  '@scure',
  'file-type',
  'strtok3',
  'token-types',
  'peek-readable',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  'otplib',
  '@otplib',
  'until-async',
  'rettime',
];
// ... and those only the server's tree has.
const serverEsmPackages = [
  ...esmPackages,
  'fastify-openapi-glue',
  '@seriousme/openapi-schema-validator',
  'content-disposition',
  'cookie',
];
// .mjs files are always compiled; .js files only in the ESM-only packages given. Compiling the
// rest too (CommonJS already) cost each server test file about half a second of reading and
// hashing cached output, and a clean clone's first files about 10 s each of compiling.
const compileOnly = (packages: string[]) => [`node_modules/(?!(${packages.join('|')})/).+\\.c?js$`];
const transformIgnorePatterns = compileOnly(esmPackages);

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
] as [string, Record<string, unknown>];

const config: Config = {
  // Server suites build real apps (migrations, seed, argon2 hashes): on a busy 2-core machine one
  // beforeAll can pass Jest's 5 s default without anything being wrong. Root level: jest-circus
  // reads the timeout of tests and hooks from the global config only, never a project's.
  testTimeout: 20_000,
  // Jest's default is one worker less than the cores: on 2 cores, one process running every file
  // in turn, idle while a test waits on PostgreSQL, a Hardhat node or a child process. Two at
  // least (each file still runs alone in its worker, on its own stores and ports).
  maxWorkers: Math.max(2, availableParallelism() - 1),
  projects: [
    {
      displayName: 'web',
      testEnvironment: 'jest-fixed-jsdom',
      testEnvironmentOptions: { url: 'http://localhost/' },
      roots: ['<rootDir>/src', '<rootDir>/test'],
      testMatch: ['**/*.test.ts', '**/*.test.tsx'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/'],
      setupFilesAfterEnv: ['<rootDir>/test/setupTests.ts'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc },
      transformIgnorePatterns,
      moduleNameMapper: { '\\.(s?css)$': '<rootDir>/test/styleStub.ts' },
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/server', '<rootDir>/scripts'],
      testMatch: ['**/*.test.ts'],
      // The development wallet comes from the signer's own code, as the bundles get it.
      setupFiles: ['<rootDir>/server/test/setup.ts'],
      // The seeded stores' templates, shared by the run's files (server/test/testStore.ts).
      globalSetup: '<rootDir>/server/test/globalSetup.ts',
      globalTeardown: '<rootDir>/server/test/globalTeardown.ts',
      // A `*.pg.test.ts` needs PostgreSQL itself (e.g. copying SQLite into it): it belongs to the
      // PostgreSQL run (`npm run test:pg` sets TEST_DATABASE_URL) and is left out of the SQLite
      // run rather than listed there as skipped.
      testPathIgnorePatterns: [
        '/node_modules/',
        ...(process.env.TEST_DATABASE_URL ? [] : ['\\.pg\\.test\\.ts$']),
      ],
      transform: { '^.+\\.(t|j|mj)sx?$': swc },
      // A package that fails with "Must use import to load ES Module" belongs in the list.
      transformIgnorePatterns: compileOnly(serverEsmPackages),
      // viem and kysely from one file each, as the built server loads them.
      moduleNameMapper: bundledDeps(),
    },
    {
      // Journeys in headless chromium against the real server: run by `npm run test:e2e` only.
      displayName: 'e2e',
      // Node's environment that tells a file's server whether to keep its data for a look.
      testEnvironment: '<rootDir>/test/e2e/environment.ts',
      // The seeded DATA_DIR that every journey's server starts from (test/e2e/server.ts).
      globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
      globalTeardown: '<rootDir>/test/e2e/globalTeardown.ts',
      roots: ['<rootDir>/test/e2e'],
      testMatch: ['**/*.e2e.ts'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc },
      transformIgnorePatterns,
    },
  ],
};

export default config;
