import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { keptOnDiskAsync } from './diskParses';

type Parse = (specification: unknown, options?: object) => Promise<unknown>;

/**
 * What the document's parse gave, kept a few documents a process, serialized: each caller gets
 * a copy of its own, and reading one back is half of what cloning it would take.
 */
const parsedByKey = new Map<string, Buffer>();
const PARSES_KEPT = 16;
let shared = false;

/**
 * A frozen document's text, written once: the server's documents are frozen and the same
 * objects at every registration (spec.ts), and writing one out took as long as a small app's
 * build. A document that can still change is written out every time.
 */
const frozenTexts = new WeakMap<object, string>();
function textOf(document: object): string {
  if (!Object.isFrozen(document)) return JSON.stringify(document);
  let text = frozenTexts.get(document);
  if (text === undefined) {
    text = JSON.stringify(document);
    frozenTexts.set(document, text);
  }
  return text;
}

/**
 * fastify-openapi-glue's parser, from the file its entry point imports (so the same module), and
 * the plugin's version (what it gives may change with it); or undefined when a release of the
 * plugin no longer has it there.
 */
function glueParser(): { parser: { prototype: { parse?: Parse } }; version: string } | undefined {
  try {
    const entry = require.resolve('fastify-openapi-glue');
    const manifest: unknown = JSON.parse(
      readFileSync(path.join(path.dirname(entry), 'package.json'), 'utf8'),
    );
    const version = (manifest as { version?: unknown } | null)?.version;
    // The package exports its entry point alone: the parser is reached by its file's path. The
    // module-scoped require, so that a test runner's module registry hands out the same module.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded: unknown = require(path.join(path.dirname(entry), 'lib', 'Parser.js'));
    const parser: unknown = (loaded as { Parser?: unknown } | null)?.Parser;
    if (typeof parser !== 'function' || typeof version !== 'string') return undefined;
    return { parser: parser as { prototype: { parse?: Parse } }, version };
  } catch {
    return undefined;
  }
}

/**
 * fastify-openapi-glue parses its document every time it is registered: it checks it against the
 * OpenAPI meta-schema, resolves its references, and turns each operation into a route's schemas
 * (copying and walking every schema for recursion). That is most of the CPU an app's build takes,
 * the same for every app built from the same document: once per registration in a server, but
 * once per app, hundreds of times a run, in the tests. A document already parsed with the same
 * options (the same JSON) gets a fresh copy of what its first parse gave (the caller and Fastify
 * may change what they get), and so does one that an earlier process parsed and kept on disk
 * (diskParses.ts: the tests, where every file starts with this module anew). A document that
 * fails to parse is parsed again, and fails again, every time. Should a release of the plugin
 * move its parser, it keeps working as it was, only slower.
 */
export function shareDocumentParses(): void {
  if (shared) return;
  shared = true;
  const glue = glueParser();
  const parser = glue?.parser;
  const parse = parser?.prototype.parse;
  if (!glue || !parser || typeof parse !== 'function') return;
  parser.prototype.parse = async function (this: unknown, specification, options = {}) {
    // A file name is read as it comes: the file may have changed.
    if (typeof specification !== 'object' || specification === null) {
      return parse.call(this, specification, options);
    }
    const key = `${textOf(specification)}\n${JSON.stringify(options)}`;
    const known = parsedByKey.get(key);
    if (known !== undefined) return deserialize(known) as unknown;
    const parsed = await keptOnDiskAsync(`openapi-glue-${glue.version}`, key, () =>
      parse.call(this, specification, options),
    );
    if (parsedByKey.size >= PARSES_KEPT) parsedByKey.clear();
    parsedByKey.set(key, serialize(parsed));
    return parsed;
  };
}
