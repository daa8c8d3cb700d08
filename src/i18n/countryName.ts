import { currentLanguage } from './i18n';
import type { LanguageCode } from './languages';

const regionNames = new Map<LanguageCode, Intl.DisplayNames>();

/**
 * A country's name in the language in use: the browser's own name for its ISO 3166-1 code, in
 * English the server's.
 */
export function countryName(country: { id: string; name: string }): string {
  const language = currentLanguage();
  if (language === 'en') return country.name;
  try {
    let names = regionNames.get(language);
    if (!names) {
      names = new Intl.DisplayNames([language], { type: 'region', fallback: 'none' });
      regionNames.set(language, names);
    }
    return names.of(country.id) ?? country.name;
  } catch {
    // Not an ISO code Intl knows: the server's name.
    return country.name;
  }
}
