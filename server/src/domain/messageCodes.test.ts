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

it("the client's English catalogue holds every code the server registers, in the same words", async () => {
  // Every module that registers messages, through the app that serves them.
  await import('../app');
  const english = (await import('../../../src/i18n/catalogues/server/en.json')).default as Record<
    string,
    string
  >;
  const server = Object.fromEntries(
    Object.entries(registeredMessages()).filter(([code]) => !code.startsWith('sample.')),
  );
  expect(
    Object.fromEntries(
      Object.entries(english).map(([key, text]) => [key.replace(/^server\./, ''), text]),
    ),
  ).toEqual(server);
});
