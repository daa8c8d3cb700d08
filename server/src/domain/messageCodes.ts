// The stable codes of the messages the portal API writes, for a client that shows them in
// another language (src/i18n/catalogues/server/, keyed by code, `{0}` for a value). A group of
// messages is coded by registering it where it is written; the answer's `codes` then names the
// code of its `msg` and of each field message. A message not registered (yet) has none, and a
// client shows it as written. Codes are `<group>.<name>` and never change: a message that says
// something else is a new name.

type Template = string | ((...values: string[]) => string);

export interface Coded {
  code: string;
  values?: string[];
}

/** A template as text with `\uE000n\uE000` where its nth value goes. */
const MARK = (n: number) => `\uE000${n}\uE000`;

const exact = new Map<string, string>();
/** Tried longest words first, so a template that says more wins over one it extends. */
const patterns: {
  code: string;
  pattern: RegExp;
  names: number[];
  words: number;
}[] = [];
/** English -> code, and code -> English in the order they were registered. */
const englishCodes = new Map<string, string>();
const registered = new Map<string, string>();

/** One code per message: the same words under a second code would leave one of them unused. */
function claim(english: string, code: string): void {
  const held = englishCodes.get(english);
  if (held !== undefined && held !== code) {
    throw new Error(`"${english}" is registered as ${held} already: use that one for ${code}`);
  }
  englishCodes.set(english, code);
  registered.set(code, english);
}

/** Registers `messages` under `group` (their names become codes); returns them unchanged. */
export function codedMessages<M extends Record<string, Template>>(group: string, messages: M): M {
  for (const [name, template] of Object.entries(messages)) {
    const code = `${group}.${name}`;
    if (typeof template === 'string') {
      claim(template, code);
      exact.set(template, code);
      continue;
    }
    const marked = template(...Array.from({ length: template.length }, (_, n) => MARK(n)));
    const names: number[] = [];
    const source = marked
      .split(/\uE000(\d+)\uE000/)
      .map((part, i) => {
        if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(Number(part));
        return '(.+?)';
      })
      .join('');
    const english = marked.replace(/\uE000(\d+)\uE000/g, '{$1}');
    claim(english, code);
    const words = marked.replace(/\uE000(\d+)\uE000/g, '').length;
    patterns.push({ code, pattern: new RegExp(`^${source}$`, 's'), names, words });
    patterns.sort((a, b) => b.words - a.words);
  }
  return messages;
}

/** The code of a message as written, with its values; undefined when it has none. */
export function codeOf(text: string): Coded | undefined {
  const code = exact.get(text);
  if (code !== undefined) return { code };
  for (const { code: patternCode, pattern, names } of patterns) {
    const match = pattern.exec(text);
    if (!match) continue;
    const values: string[] = [];
    names.forEach((n, i) => {
      values[n] = match[i + 1] ?? '';
    });
    return { code: patternCode, values };
  }
  return undefined;
}

/** Every registered code with its English, `{n}` for its values (the English catalogue's). */
export function registeredMessages(): Record<string, string> {
  return Object.fromEntries(registered);
}
