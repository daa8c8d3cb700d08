// Checks the relative links of the project's documentation, so a moved file or a renamed heading
// fails `npm run lint` instead of leaving a reader on a 404.
//
//   node scripts/check-links.mjs [root]     (root: the repository, by default)
//
// In README.md, CONTRIBUTING.md, docs/*.md and scripts/contract/README.md (those that exist):
// every `[text](path)`, `[text](path#anchor)`, `[text](#anchor)` and `[id]: path` outside code
// must name a file or directory that exists, relative to the linking file (a leading `/`: to the
// root), and an anchor into a markdown file must match one of its headings by GitHub's slug rules.
// Links with a scheme (http:, https:, mailto:, …) are not checked. In docs/architecture.md, every
// path in backticks that starts with a top-level folder of the repository must exist too.
// Prints `file:line: message` per broken link and exits 1, or one line of summary and exits 0.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFAULT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The documents checked, relative to the root. */
function documents(root) {
  const files = ['README.md', 'CONTRIBUTING.md', 'scripts/contract/README.md'];
  const docs = path.join(root, 'docs');
  if (existsSync(docs) && statSync(docs).isDirectory()) {
    for (const name of readdirSync(docs).sort())
      if (name.endsWith('.md')) files.push(`docs/${name}`);
  }
  return files.filter((file) => existsSync(path.join(root, file)));
}

/** Backticked paths starting with one of these are repository paths (docs/architecture.md). */
const REPO_PATH = /^(server|src|scripts|test|docs|public|\.ci)\//;
/** Placeholders and patterns rather than paths: wildcards, `<name>`, `{a,b}`, `…`, `$VAR`. */
const PATTERN = /[*<>{}$…]|\.\.\./;

/**
 * The lines of a markdown text with code removed: fenced blocks become empty lines, inline code
 * spans are kept apart (`codeSpans`) and blanked in `text`, so nothing in code counts as a link.
 */
function scan(markdown) {
  const lines = markdown.split(/\r?\n/);
  /** @type {{ text: string, codeSpans: string[], inFence: boolean }[]} */
  const out = [];
  let fence = null;
  for (const line of lines) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opener && opener[1][0] === fence[0] && opener[1].length >= fence.length) fence = null;
      out.push({ text: '', codeSpans: [], inFence: true });
      continue;
    }
    if (opener) {
      fence = opener[1];
      out.push({ text: '', codeSpans: [], inFence: true });
      continue;
    }
    const codeSpans = [];
    const text = line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, ticks, code) => {
      codeSpans.push(code.trim());
      return ' '.repeat(ticks.length * 2 + code.length);
    });
    out.push({ text, codeSpans, inFence: false });
  }
  return out;
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, spaces to `-`. */
function slug(heading) {
  const plain = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return plain.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a markdown file offers: its headings' slugs (duplicates numbered) and HTML ids. */
function anchorsOf(markdown) {
  const anchors = new Set();
  const seen = new Map();
  const add = (text) => {
    const base = slug(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  };
  const lines = markdown.split(/\r?\n/);
  const scanned = scan(markdown);
  scanned.forEach((line, i) => {
    if (line.inFence) return;
    const raw = lines[i] ?? '';
    const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(raw);
    if (atx) {
      add(atx[1] ?? '');
    } else {
      const next = scanned[i + 1];
      const underline = lines[i + 1] ?? '';
      if (
        next &&
        !next.inFence &&
        raw.trim() !== '' &&
        !/^\s*([|>-]|\d+\.)/.test(raw) &&
        /^ {0,3}(=+|-+)[ \t]*$/.test(underline)
      ) {
        add(raw.trim());
      }
    }
    for (const m of raw.matchAll(/<a\s[^>]*\b(?:name|id)=["']([^"']+)["']/gi)) anchors.add(m[1]);
  });
  return anchors;
}

/** A link's path or anchor as written in the file (`%20` is a space); left alone if malformed. */
function decode(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The link targets of one line (text with code blanked), with inline and reference forms. */
function targetsOf(text) {
  const targets = [];
  for (const m of text.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+)/g)) {
    targets.push(m[1].replace(/^<|>$/g, ''));
  }
  const reference = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(text);
  if (reference) targets.push(reference[1].replace(/^<|>$/g, ''));
  return targets;
}

/**
 * Checks the documentation under `root`; answers the problems (`file:line: message`) and counts.
 * @param {string} root
 */
function checkLinks(root) {
  const problems = [];
  const anchorCache = new Map();
  const anchors = (file) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
    return anchorCache.get(file);
  };
  let links = 0;
  let paths = 0;
  const files = documents(root);
  for (const file of files) {
    const absolute = path.join(root, file);
    const lines = scan(readFileSync(absolute, 'utf8'));
    lines.forEach((line, index) => {
      const where = `${file}:${index + 1}`;
      for (const target of targetsOf(line.text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:, …
        links += 1;
        const hash = target.indexOf('#');
        const rawPath = hash === -1 ? target : target.slice(0, hash);
        const anchor = hash === -1 ? null : decode(target.slice(hash + 1));
        let linked = absolute;
        if (rawPath !== '') {
          const decoded = decode(rawPath);
          linked = decoded.startsWith('/')
            ? path.join(root, decoded)
            : path.resolve(path.dirname(absolute), decoded);
          if (!existsSync(linked)) {
            problems.push(`${where}: broken link: ${target} (no ${path.relative(root, linked)})`);
            continue;
          }
        }
        if (anchor !== null && linked.endsWith('.md') && statSync(linked).isFile()) {
          if (!anchors(linked).has(anchor)) {
            const shown = rawPath === '' ? file : path.relative(root, linked);
            problems.push(`${where}: broken anchor: ${target} (no heading #${anchor} in ${shown})`);
          }
        }
      }
      if (file === 'docs/architecture.md') {
        for (const code of line.codeSpans) {
          if (!REPO_PATH.test(code) || /\s/.test(code) || PATTERN.test(code)) continue;
          paths += 1;
          const repoPath = code.replace(/#.*$/, '').replace(/:\d+(?::\d+)?$/, '');
          if (!existsSync(path.join(root, repoPath))) {
            problems.push(`${where}: no such path: \`${code}\``);
          }
        }
      }
    });
  }
  return { problems, files: files.length, links, paths };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? DEFAULT_ROOT);
  const { problems, files, links, paths } = checkLinks(root);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    console.error(`check-links: ${problems.length} broken in ${files} files`);
    process.exit(1);
  }
  console.log(`check-links: ${files} files, ${links} relative links and ${paths} paths OK`);
}
