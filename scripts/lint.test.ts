import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm run lint` must fail on an import cycle, on a dead export and on a feature of the portal
// importing another's files (or shared code importing a feature). It runs here on a scratch
// copy of the lint configuration with a few small files in the repository's layout, not on the
// tree itself, so it takes seconds.

const ROOT = path.resolve(__dirname, '..');
const CONFIG_FILES = [
  'package.json',
  'eslint.config.mjs',
  'knip.jsonc',
  '.prettierrc.json',
  '.prettierignore',
];

// A clean tree: the server entry uses the one export of the module it imports.
const CLEAN: Record<string, string> = {
  'server/src/main.ts': "import { double } from './domain/math';\n\nconsole.log(double(2));\n",
  'server/src/domain/math.ts': 'export function double(n: number): number {\n  return n * 2;\n}\n',
};

// A two-file cycle in each of the four folders the rule covers, one file kind each.
const CYCLES: Record<string, string> = {
  'src/cycle/Left.tsx':
    "import { right } from './Right';\n\nexport const left = (): string => right();\n",
  'src/cycle/Right.tsx':
    "import { left } from './Left';\n\nexport const right = (): string => typeof left;\n",
  'server/src/cycle/ping.ts':
    "import { pong } from './pong';\n\nexport const ping = (): string => pong();\n",
  'server/src/cycle/pong.ts':
    "import { ping } from './ping';\n\nexport const pong = (): string => typeof ping;\n",
  'scripts/cycle/one.mjs': "import { two } from './two.mjs';\n\nexport const one = () => two();\n",
  'scripts/cycle/two.mjs':
    "import { one } from './one.mjs';\n\nexport const two = () => typeof one;\n",
  'test/cycle/first.ts':
    "import { second } from './second';\n\nexport const first = (): string => second();\n",
  'test/cycle/second.ts':
    "import { first } from './first';\n\nexport const second = (): string => typeof first;\n",
};

// The clean tree's module with a second export nobody imports.
const DEAD_EXPORT: Record<string, string> = {
  'server/src/domain/math.ts': `${CLEAN['server/src/domain/math.ts']}\nexport function triple(n: number): number {\n  return n * 3;\n}\n`,
};

// A feature's page and its rules, and the router that loads the page lazily: what the feature rule
// allows (a feature's own files, shared code, the app's wiring).
const FEATURES: Record<string, string> = {
  'src/lib/money.ts': 'export const cents = (n: number): number => Math.round(n * 100);\n',
  'src/features/wallet/walletRules.ts':
    "import { cents } from '../../lib/money';\n\nexport const minimum = (): number => cents(1);\n",
  'src/features/wallet/WalletPage.ts':
    "import { minimum } from './walletRules';\n\nexport default (): number => minimum();\n",
  'src/app/router.ts': "export const loadWallet = () => import('../features/wallet/WalletPage');\n",
};

// Another feature reaching into the wallet's files, and shared code importing a feature.
const CROSS_FEATURE: Record<string, string> = {
  'src/features/kyc/KycPage.ts':
    "import { minimum } from '../wallet/walletRules';\n\nexport const kyc = (): number => minimum();\n",
  'src/components/Badge.ts':
    "import WalletPage from '../features/wallet/WalletPage';\n\nexport const badge = (): number => WalletPage();\n",
};

// The server's layers, as arrows that run down: an API calls the domain, the job list calls the
// domain, the domain adds a job to the queue and uses the signer's client.
const LAYERS: Record<string, string> = {
  'server/src/jobs/queue.ts': 'export const addJob = (kind: string): string => kind;\n',
  'server/src/signer/client/client.ts': 'export const ask = (op: string): string => op;\n',
  'server/src/domain/payments.ts':
    "import { addJob } from '../jobs/queue';\nimport { ask } from '../signer/client/client';\n\nexport const pay = (): string => addJob('pay') + ask('sign');\n",
  'server/src/jobs/index.ts':
    "import { pay } from '../domain/payments';\n\nexport const jobs = (): string => pay();\n",
  'server/src/gateway/handlers.ts':
    "import { jobs } from '../jobs';\n\nexport const handle = (): string => jobs();\n",
  'server/src/main.ts':
    "import { double } from './domain/math';\nimport { handle } from './gateway/handlers';\n\nconsole.log(double(2), handle());\n",
};

// Arrows that run up: the domain reaching into HTTP, an API, the signer's server part or seed
// data; the signer's client importing its server; the job list importing the signer's server.
const UPWARD: Record<string, string> = {
  'server/src/http/errors.ts': 'export const status = (): number => 400;\n',
  'server/src/signer/server/seed.ts': 'export const mnemonic = (): string => "words";\n',
  'server/src/seed/demo.ts': 'export const demo = (): string => "demo";\n',
  'server/src/domain/refusal.ts':
    "import { status } from '../http/errors';\nimport { handle } from '../gateway/handlers';\nimport { mnemonic } from '../signer/server/seed';\nimport { demo } from '../seed/demo';\n\nexport const refuse = (): string => `${status()}${handle()}${mnemonic()}${demo()}`;\n",
  'server/src/signer/client/peek.ts':
    "import { mnemonic } from '../server/seed';\n\nexport const peek = (): string => mnemonic();\n",
  'server/src/main.ts':
    "import { double } from './domain/math';\nimport { refuse } from './domain/refusal';\nimport { peek } from './signer/client/peek';\n\nconsole.log(double(2), refuse(), peek());\n",
};

let scratch: string;

function lintWith(files: Record<string, string>): { status: number | null; output: string } {
  for (const dir of ['src', 'server', 'scripts', 'test']) {
    rmSync(path.join(scratch, dir), { recursive: true, force: true });
  }
  for (const [file, text] of Object.entries({ ...CLEAN, ...files })) {
    mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
    writeFileSync(path.join(scratch, file), text);
  }
  // `npm run lint` starts with the documentation's link check (a tree without docs passes it).
  mkdirSync(path.join(scratch, 'scripts'), { recursive: true });
  copyFileSync(
    path.join(ROOT, 'scripts/check-links.mjs'),
    path.join(scratch, 'scripts/check-links.mjs'),
  );
  const run = spawnSync('npm', ['run', '-s', 'lint'], {
    cwd: scratch,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

/** ESLint's stylish report: a block per file, its path on the first line. */
function eslintBlock(output: string, file: string): string {
  const absolute = path.join(scratch, file);
  return output.split(/\n\s*\n/).find((block) => block.trim().startsWith(absolute)) ?? '';
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'lint-scratch-'));
  for (const file of CONFIG_FILES) copyFileSync(path.join(ROOT, file), path.join(scratch, file));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('passes on a tree without cycles or dead exports', () => {
  const { status, output } = lintWith({});
  expect({ status, output }).toEqual({ status: 0, output: expect.any(String) });
}, 120_000);

test('fails on an import cycle, naming each file in it', () => {
  const { status, output } = lintWith(CYCLES);
  expect(status).not.toBe(0);
  for (const file of Object.keys(CYCLES)) {
    expect([file, eslintBlock(output, file)]).toEqual([
      file,
      expect.stringContaining('import-x/no-cycle'),
    ]);
  }
}, 120_000);

test('fails on a dead export, naming it', () => {
  const { status, output } = lintWith(DEAD_EXPORT);
  expect(status).not.toBe(0);
  expect(output).toMatch(
    /Unused exports \(1\)\s+triple\s+function\s+server\/src\/domain\/math\.ts/,
  );
}, 120_000);

test('passes on features that import their own files and shared code, loaded by the router', () => {
  const { status, output } = lintWith(FEATURES);
  expect({ status, output }).toEqual({ status: 0, output: expect.any(String) });
}, 120_000);

test('fails on a feature importing another, or shared code importing a feature, naming each', () => {
  const { status, output } = lintWith({ ...FEATURES, ...CROSS_FEATURE });
  expect(status).not.toBe(0);
  for (const file of Object.keys(CROSS_FEATURE)) {
    expect([file, eslintBlock(output, file)]).toEqual([
      file,
      expect.stringContaining('import-x/no-restricted-paths'),
    ]);
  }
  for (const file of Object.keys(FEATURES)) {
    expect([file, eslintBlock(output, file)]).toEqual([file, '']);
  }
}, 120_000);

test('passes on server layers whose arrows run down', () => {
  const { status, output } = lintWith(LAYERS);
  expect({ status, output }).toEqual({ status: 0, output: expect.any(String) });
}, 120_000);

test('fails on an upward import in the server, naming the file and each import', () => {
  const { status, output } = lintWith({ ...LAYERS, ...UPWARD });
  expect(status).not.toBe(0);
  const domain = eslintBlock(output, 'server/src/domain/refusal.ts');
  for (const target of [
    '../http/errors',
    '../gateway/handlers',
    '../signer/server/seed',
    '../seed/demo',
  ]) {
    expect([target, domain]).toEqual([target, expect.stringContaining(`"${target}"`)]);
  }
  expect(domain.match(/import-x\/no-restricted-paths/g)).toHaveLength(4);
  expect(eslintBlock(output, 'server/src/signer/client/peek.ts')).toContain(
    'import-x/no-restricted-paths',
  );
  for (const file of Object.keys(LAYERS).filter((f) => f !== 'server/src/main.ts')) {
    expect([file, eslintBlock(output, file)]).toEqual([file, '']);
  }
}, 120_000);
