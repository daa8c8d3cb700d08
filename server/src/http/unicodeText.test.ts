import { SURROGATE_ESCAPE, wholeText } from './unicodeText';

// What the JSON parser refuses: a string, value or key, that holds half a surrogate pair,
// however deep or long the body.

test('whole pairs are text, halves are not, in values and keys', () => {
  expect(wholeText(JSON.parse('{"a":["\\ud83d\\ude80",1,null,true,{"b":"x"}]}'))).toBe(true);
  expect(wholeText(JSON.parse('{"a":[1,{"b":"x\\ud800"}]}'))).toBe(false);
  expect(wholeText(JSON.parse('{"a\\udfff":1}'))).toBe(false);
  expect(wholeText(JSON.parse('"\\ude80\\ud83d"'))).toBe(false);
});

test('a body nested deeper, or with a longer array, than the call stack takes', () => {
  const deep = `${'['.repeat(200_000)}"\\ud800"${']'.repeat(200_000)}`;
  expect(SURROGATE_ESCAPE.test(deep)).toBe(true);
  expect(wholeText(JSON.parse(deep))).toBe(false);
  expect(wholeText(new Array(500_000).fill('ok'))).toBe(true);
});

test('only a surrogate escape makes a body worth looking through', () => {
  expect(SURROGATE_ESCAPE.test('{"a":"\\u00e9 \\u20ac"}')).toBe(false);
  expect(SURROGATE_ESCAPE.test('{"a":"\\uDBFF"}')).toBe(true);
});
