import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm run lint` must fail on an import cycle, on a dead export and on a feature of the portal
// importing another's files (or shared code importing a feature). Its commands run here on
// scratch copies of the lint configuration, one small tree per case in the repository's layout,
// not on the tree itself, so it takes seconds: all the trees are linted once (lintAll), and each
// test looks at its own tree's answer.

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

/** Each tree the tests look at: the clean tree plus a scenario's files. */
const TREES = {
  clean: {},
  cycles: CYCLES,
  deadExport: DEAD_EXPORT,
  features: FEATURES,
  crossFeature: { ...FEATURES, ...CROSS_FEATURE },
  layers: LAYERS,
  upward: { ...LAYERS, ...UPWARD },
} satisfies Record<string, Record<string, string>>;
type Tree = keyof typeof TREES;

let scratch: string;
/** What `npm run lint` answered on each tree: its exit status and everything it printed. */
const linted = new Map<Tree, { status: number | null; output: string }>();

/** Each tree's own folder under `scratch`, a project of its own (configuration and files). */
const treeDir = (tree: Tree) => path.join(scratch, tree);

function run(command: string, args: string[], cwd: string) {
  const bin = command === 'node' ? process.execPath : path.join(ROOT, 'node_modules/.bin', command);
  const result = spawnSync(bin, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/**
 * Runs `npm run lint`'s commands, as package.json spells them, on every tree: each in turn on the
 * trees the ones before it passed, stopping a tree at its first failure as `&&` does. Each command
 * runs in the tree's folder, as npm would run it there, except ESLint: one run over all the trees
 * still in (ESLint reads each file's settings from the eslint.config.mjs of its own tree), a tree
 * failing when the report names any of its files (`--max-warnings 0`: a warning fails it too).
 * One ESLint start instead of seven is most of this file's time saved; npm itself adds nothing
 * to check.
 */
function lintAll() {
  const script = (
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string | undefined>;
    }
  ).scripts.lint;
  if (!script) throw new Error('package.json has no lint script');
  let left = Object.keys(TREES) as Tree[];
  const outputs = new Map<Tree, string[]>(left.map((tree) => [tree, []]));
  for (const step of script.split(' && ')) {
    const [command, ...args] = step.trim().split(/\s+/);
    if (!command) throw new Error(`lint script with an empty step: ${script}`);
    if (command === 'eslint') {
      const dot = args.indexOf('.');
      if (dot < 0) throw new Error(`eslint no longer lints '.' in the lint script: ${step}`);
      const treeArgs = [...args.slice(0, dot), ...left.map(treeDir), ...args.slice(dot + 1)];
      const { status, output } = run(command, treeArgs, scratch);
      const failed = (tree: Tree) =>
        (status !== 0 && status !== 1) ||
        output.split('\n').some((line) => line.startsWith(`${treeDir(tree)}${path.sep}`));
      if (status === 1 && !left.some(failed)) {
        throw new Error(`eslint failed and named no file of any tree:\n${output}`);
      }
      for (const tree of left) {
        outputs.get(tree)?.push(output);
        if (failed(tree)) linted.set(tree, { status: status || 1, output: '' });
      }
    } else {
      for (const tree of left) {
        const { status, output } = run(command, args, treeDir(tree));
        outputs.get(tree)?.push(output);
        if (status !== 0) linted.set(tree, { status, output: '' });
      }
    }
    left = left.filter((tree) => !linted.has(tree));
  }
  for (const tree of left) linted.set(tree, { status: 0, output: '' });
  for (const [tree, result] of linted) result.output = (outputs.get(tree) ?? []).join('\n');
}

/** ESLint's stylish report: a block per file, its path on the first line. */
function eslintBlock(tree: Tree, file: string): string {
  const absolute = path.join(treeDir(tree), file);
  const output = lint(tree).output;
  return output.split(/\n\s*\n/).find((block) => block.trim().startsWith(absolute)) ?? '';
}

function lint(tree: Tree): { status: number | null; output: string } {
  const result = linted.get(tree);
  if (!result) throw new Error(`tree ${tree} was not linted`);
  return result;
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'lint-scratch-'));
  for (const [tree, files] of Object.entries(TREES) as [Tree, Record<string, string>][]) {
    const dir = treeDir(tree);
    mkdirSync(dir);
    for (const file of CONFIG_FILES) copyFileSync(path.join(ROOT, file), path.join(dir, file));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    for (const [file, text] of Object.entries({ ...CLEAN, ...files })) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    // `npm run lint` starts with the documentation's link check (a tree without docs passes it).
    mkdirSync(path.join(dir, 'scripts'), { recursive: true });
    copyFileSync(
      path.join(ROOT, 'scripts/check-links.mjs'),
      path.join(dir, 'scripts/check-links.mjs'),
    );
  }
  lintAll();
}, 120_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('passes on a tree without cycles or dead exports', () => {
  const { status, output } = lint('clean');
  expect({ status, output }).toEqual({ status: 0, output: expect.any(String) });
});

test('fails on an import cycle, naming each file in it', () => {
  const { status } = lint('cycles');
  expect(status).not.toBe(0);
  for (const file of Object.keys(CYCLES)) {
    expect([file, eslintBlock('cycles', file)]).toEqual([
      file,
      expect.stringContaining('import-x/no-cycle'),
    ]);
  }
});

test('fails on a dead export, naming it', () => {
  const { status, output } = lint('deadExport');
  expect(status).not.toBe(0);
  expect(output).toMatch(
    /Unused exports \(1\)\s+triple\s+function\s+server\/src\/domain\/math\.ts/,
  );
});

test('passes on features that import their own files and shared code, loaded by the router', () => {
  const { status, output } = lint('features');
  expect({ status, output }).toEqual({ status: 0, output: expect.any(String) });
});

test('fails on a feature importing another, or shared code importing a feature, naming each', () => {
  const { status } = lint('crossFeature');
  expect(status).not.toBe(0);
  for (const file of Object.keys(CROSS_FEATURE)) {
    expect([file, eslintBlock('crossFeature', file)]).toEqual([
      file,
      expect.stringContaining('import-x/no-restricted-paths'),
    ]);
  }
  for (const file of Object.keys(FEATURES)) {
    expect([file, eslintBlock('crossFeature', file)]).toEqual([file, '']);
  }
});

test('passes on server layers whose arrows run down', () => {
  const { status, output } = lint('layers');
  expect({ status, output }).toEqual({ status: 0, output: expect.any(String) });
});

test('fails on an upward import in the server, naming the file and each import', () => {
  const { status } = lint('upward');
  expect(status).not.toBe(0);
  const domain = eslintBlock('upward', 'server/src/domain/refusal.ts');
  for (const target of [
    '../http/errors',
    '../gateway/handlers',
    '../signer/server/seed',
    '../seed/demo',
  ]) {
    expect([target, domain]).toEqual([target, expect.stringContaining(`"${target}"`)]);
  }
  expect(domain.match(/import-x\/no-restricted-paths/g)).toHaveLength(4);
  expect(eslintBlock('upward', 'server/src/signer/client/peek.ts')).toContain(
    'import-x/no-restricted-paths',
  );
  for (const file of Object.keys(LAYERS).filter((f) => f !== 'server/src/main.ts')) {
    expect([file, eslintBlock('upward', file)]).toEqual([file, '']);
  }
});
