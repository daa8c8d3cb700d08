import { ENGLISH, LANGUAGES, languageFor, type MessageId } from './messages';
import { formatters } from './screens';

// The checkout's catalogues: every language says every sentence, with the same values in it,
// and the page's language follows the shopper's choice, then the browser's.

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const ids = Object.keys(ENGLISH.messages) as MessageId[];

describe.each(LANGUAGES.filter((l) => l !== ENGLISH).map((l) => [l.code, l] as const))(
  'the %s catalogue',
  (_code, language) => {
    it('has every sentence of the English one, and no other', () => {
      expect(Object.keys(language.messages)).toEqual(ids);
    });

    it('fills in the same values as the English sentence, and is not left empty', () => {
      const wrong = ids.filter(
        (id) =>
          language.messages[id].trim() === '' ||
          placeholders(language.messages[id]).join() !== placeholders(ENGLISH.messages[id]).join(),
      );
      expect(wrong).toEqual([]);
    });

    it('is translated, not English', () => {
      const same = ids.filter((id) => language.messages[id] === ENGLISH.messages[id]);
      // A sentence made only of values and symbols reads the same in every language.
      const words = (id: MessageId) => language.messages[id].replace(/\{\w+\}/g, '');
      expect(same.filter((id) => /[A-Za-z]{3}/.test(words(id)))).toEqual([]);
    });
  },
);

describe('the page language', () => {
  it('follows the language the shopper picked', () => {
    expect(languageFor('ja', 'fr-FR,fr;q=0.9').code).toBe('ja');
  });

  it('follows the browser when the pick names no language of ours', () => {
    expect(languageFor('xx', 'fr-CA,fr;q=0.9,en;q=0.8').code).toBe('fr');
    expect(languageFor(['fr', 'ja'], 'ru').code).toBe('ru');
  });

  it("takes the browser's best language the page has", () => {
    expect(languageFor(undefined, 'de-DE,de;q=0.9,tr;q=0.5,en;q=0.4').code).toBe('tr');
    expect(languageFor(undefined, 'ar-EG').dir).toBe('rtl');
  });

  it('falls back to English', () => {
    expect(languageFor(undefined, 'de-DE,de;q=0.9')).toBe(ENGLISH);
    expect(languageFor(undefined, undefined)).toBe(ENGLISH);
    expect(languageFor(undefined, ';;garbage,,')).toBe(ENGLISH);
  });

  it('formats amounts and dates in its locale, with the digits a wallet shows', () => {
    const byCode = (code: string) => LANGUAGES.find((l) => l.code === code) ?? ENGLISH;
    const at = '2026-11-29T14:05:00.000Z';
    expect(formatters(byCode('fr')).token('1234.5')).toBe('1\u202f234,5');
    expect(formatters(byCode('ja')).time(at)).toBe('2026/11/29 14:05 UTC');
    expect(formatters(byCode('ja')).money('1235', 'JPY')).toBe('￥1,235');
    expect(formatters(byCode('ar')).token('1234.5')).toBe('1,234.5');
    expect(formatters(byCode('en')).money('49.9', 'EUR')).toBe('€49.90');
  });
});
