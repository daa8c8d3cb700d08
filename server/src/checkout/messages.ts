import Negotiator from 'negotiator';
import { ar } from './languages/ar';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { it } from './languages/it';
import { ja } from './languages/ja';
import { ru } from './languages/ru';
import { tr } from './languages/tr';
import { vi } from './languages/vi';

// Every sentence the checkout page (/pay/{id}), a payment link's page (/l/{slug}) and a refund's
// claim page (/refund/{token}) show a shopper, one catalogue per language, keyed by id
// (languages/). Every language has every id (the type makes a missing one a compile error,
// checkout.test.ts a missing `{name}`), and `{name}` marks a value the page fills in. Amounts and
// dates are formatted by the page with Intl in the language's locale, never written into a
// sentence.

export type MessageId = keyof typeof en;
export type Catalogue = Record<MessageId, string>;

/** A catalogue with the locale its amounts and dates are formatted in. */
export interface Language {
  /** BCP 47 tag: the page's `lang`, the `?lang=` a picker link carries. */
  code: string;
  /** Its own name, as the picker shows it. */
  name: string;
  /** Intl's locale: Arabic keeps Latin digits, the digits every wallet shows. */
  locale: string;
  dir: 'ltr' | 'rtl';
  messages: Catalogue;
}

const language = (
  code: string,
  name: string,
  messages: Catalogue,
  extra: Partial<Pick<Language, 'locale' | 'dir'>> = {},
): Language => ({ code, name, locale: code, dir: 'ltr', messages, ...extra });

export const ENGLISH = language('en', 'English', en);

/** The languages of the spec's pickers, and Arabic, right to left. */
export const LANGUAGES: readonly Language[] = [
  ENGLISH,
  language('fr', 'Français', fr),
  language('it', 'Italiano', it),
  language('es', 'Español', es),
  language('ru', 'Русский', ru),
  language('ja', '日本語', ja),
  language('vi', 'Tiếng Việt', vi),
  language('tr', 'Türkçe', tr),
  language('ar', 'العربية', ar, { locale: 'ar-u-nu-latn', dir: 'rtl' }),
];

const byCode = new Map(LANGUAGES.map((l) => [l.code, l]));
const codes = LANGUAGES.map((l) => l.code);

/**
 * The language a page is drawn in: the one its `?lang=` names (the picker's links), else the
 * best of the browser's Accept-Language, else English.
 */
export function languageFor(chosen: unknown, acceptLanguage: string | undefined): Language {
  if (typeof chosen === 'string') {
    const named = byCode.get(chosen);
    if (named) return named;
  }
  if (acceptLanguage === undefined) return ENGLISH;
  const best = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language(codes);
  return (best !== undefined && byCode.get(best)) || ENGLISH;
}

export type Params = Record<string, string | number>;

/** The message `id` of `language`, its `{name}`s filled from `params`. */
export function say(language: Language, id: MessageId, params: Params = {}): string {
  return language.messages[id].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}
