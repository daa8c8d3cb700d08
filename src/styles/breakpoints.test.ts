import fs from 'node:fs';
import path from 'node:path';
import * as sass from 'sass';

// main.scss generates breakpoint variants (`d-lg-flex`, `px-sm-3`) only for the utilities the
// screens use with a breakpoint. A class written in a screen that the stylesheets do not define
// would silently do nothing: every one must exist.

const SRC = path.resolve(__dirname, '..');
const BREAKPOINT_CLASS = /\b[a-z]+(?:-[a-z]+)*-(?:sm|md|lg|xl|xxl)-[a-z0-9]+(?:-[a-z0-9]+)*\b/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

function definedClasses(): Set<string> {
  const classes = new Set<string>();
  for (const sheet of ['main.scss', 'portal.scss']) {
    const { css } = sass.compile(path.join(__dirname, sheet), {
      loadPaths: [path.resolve(SRC, '..', 'node_modules'), __dirname],
      quietDeps: true,
      silenceDeprecations: ['import'],
    });
    for (const [, name] of css.matchAll(/\.([a-z][a-z0-9-]*)/g)) if (name) classes.add(name);
  }
  return classes;
}

test('every breakpoint class a screen uses is in the stylesheets', () => {
  const used = new Map<string, string>();
  for (const file of sourceFiles(SRC)) {
    for (const [name] of fs.readFileSync(file, 'utf8').matchAll(BREAKPOINT_CLASS)) {
      used.set(name, path.relative(SRC, file));
    }
  }
  // The screens do use some (the sign-in layout, the dashboard's grid).
  expect(used.has('d-lg-flex')).toBe(true);
  const defined = definedClasses();
  const missing = [...used].filter(([name]) => !defined.has(name)).map(([n, f]) => `${n} (${f})`);
  expect(missing).toEqual([]);
});
