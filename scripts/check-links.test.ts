import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm run lint` runs scripts/check-links.mjs first: a relative link to a missing file, or an
// anchor that no heading of its target makes, must fail it. Checked on scratch markdown trees.

const SCRIPT = path.resolve(__dirname, 'check-links.mjs');

const GUIDE = `# Guide

## Keys, abilities and the whitelist

## Errors

### Errors

Text with a [link back](../README.md) and [one of its own](#errors-1).
`;

const CLEAN: Record<string, string> = {
  'README.md': `# Project

See [the guide](docs/guide.md), its [keys](docs/guide.md#keys-abilities-and-the-whitelist),
[the scripts](scripts/) and [the site](https://example.com/missing.md).

\`[not a link](nowhere.md)\`, and in a block:

\`\`\`md
[not a link either](nowhere.md)
\`\`\`
`,
  'docs/guide.md': GUIDE,
  'docs/architecture.md':
    'The checker is `scripts/check-links.mjs`; a pattern: `src/features/*`.\n',
  'scripts/check-links.mjs': '',
};

const BROKEN: Record<string, string> = {
  ...CLEAN,
  'README.md': `# Project

Good: [the guide](docs/guide.md#errors).
Broken: [a missing page](docs/missing.md).
Broken anchor: [a renamed heading](docs/guide.md#keys-and-abilities).
`,
  'docs/architecture.md': 'Jobs live in `server/src/jobs/index.ts`.\n',
};

let scratch: string;

function check(files: Record<string, string>): { status: number | null; output: string } {
  rmSync(scratch, { recursive: true, force: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
    writeFileSync(path.join(scratch, file), text);
  }
  const run = spawnSync(process.execPath, [SCRIPT, scratch], { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'check-links-'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

test('passes on a tree whose links, anchors and paths all resolve', () => {
  const { status, output } = check(CLEAN);
  expect({ status, output }).toEqual({
    status: 0,
    output: expect.stringMatching(/^check-links: 3 files, 5 relative links and 1 paths OK\n$/),
  });
});

test('reports a missing file, a missing anchor and a missing path, by file and line', () => {
  const { status, output } = check(BROKEN);
  expect(status).toBe(1);
  const reported = output.split('\n').filter((line) => /^[\w/.-]+\.md:\d+: /.test(line));
  expect(reported).toEqual([
    'README.md:4: broken link: docs/missing.md (no docs/missing.md)',
    'README.md:5: broken anchor: docs/guide.md#keys-and-abilities (no heading #keys-and-abilities in docs/guide.md)',
    'docs/architecture.md:1: no such path: `server/src/jobs/index.ts`',
  ]);
  expect(output).not.toContain('README.md:3:');
});
