import serverEn from '../../../src/i18n/catalogues/server/en.json';
// Every module that registers messages, through the app that serves them.
import '../app';
import { codedMessages, codeOf, registeredMessages } from './messageCodes';

// A registered message is found again by its words, its values read back from them.

const MESSAGES = codedMessages('sample', {
  done: 'Sample done.',
  held: (until: string, by: string) => `Held until ${until} by ${by}.`,
});

it('codes a fixed message and a message with values, and nothing else', () => {
  expect(codeOf(MESSAGES.done)).toEqual({ code: 'sample.done' });
  expect(codeOf(MESSAGES.held('Friday (noon)', 'the operator'))).toEqual({
    code: 'sample.held',
    values: ['Friday (noon)', 'the operator'],
  });
  expect(codeOf('Sample done')).toBeUndefined();
  expect(codeOf('Held until Friday.')).toBeUndefined();
});

it("lists every code with its English, {n} for a value: the English catalogue's", () => {
  expect(registeredMessages()).toMatchObject({
    'sample.done': 'Sample done.',
    'sample.held': 'Held until {0} by {1}.',
  });
});

it("the client's English catalogue holds every code the server registers, in the same words", () => {
  const server = Object.fromEntries(
    Object.entries(registeredMessages()).filter(([code]) => !/^sample\w*\./.test(code)),
  );
  const english = Object.fromEntries(
    Object.entries(serverEn).map(([key, text]) => [key.replace(/^server\./, ''), text]),
  );
  expect(english).toEqual(server);
});

it('finds every registered message again by its words, under its own code', () => {
  const wrong = Object.entries(registeredMessages()).filter(([code, english]) => {
    const text = english.replace(/\{(\d+)\}/g, (_, n: string) => `value ${n}`);
    return codeOf(text)?.code !== code;
  });
  expect(wrong).toEqual([]);
});

it('refuses the same words under a second code', () => {
  expect(() => codedMessages('other', { again: MESSAGES.done })).toThrow(/sample\.done/);
  expect(() =>
    codedMessages('other', { held: (a: string, b: string) => `Held until ${a} by ${b}.` }),
  ).toThrow(/sample\.held/);
});

it('tries the template that says more first, whatever the order they were registered in', () => {
  const short = codedMessages('sampleShort', { off: (code: string) => `Sample ${code} is off.` });
  const long = codedMessages('sampleLong', {
    off: (code: string) => `Sample ${code} is off. Switch it on first.`,
  });
  expect(codeOf(long.off('X'))).toEqual({ code: 'sampleLong.off', values: ['X'] });
  expect(codeOf(short.off('X'))).toEqual({ code: 'sampleShort.off', values: ['X'] });
});
