import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm run lint` must fail on an import cycle and on a dead export. It runs here on a scratch
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

let scratch: string;

function lintWith(files: Record<string, string>): { status: number | null; output: string } {
  for (const dir of ['src', 'server', 'scripts', 'test']) {
    rmSync(path.join(scratch, dir), { recursive: true, force: true });
  }
  for (const [file, text] of Object.entries({ ...CLEAN, ...files })) {
    mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
    writeFileSync(path.join(scratch, file), text);
  }
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
