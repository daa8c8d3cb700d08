// The portal's languages: the two pickers of the spec (the public header's English, French and
// Italian; the settings panel's English, Russian, Japanese, Spanish (International), Vietnamese
// and Turkish), each offering all eight, its own spec's languages first
// (docs/decisions.md: Languages).
export const LANGUAGES = ['en', 'fr', 'it', 'ru', 'ja', 'es', 'vi', 'tr'] as const;
export type LanguageCode = (typeof LANGUAGES)[number];

export const PUBLIC_PICKER: readonly LanguageCode[] = [
  'en',
  'fr',
  'it',
  'ru',
  'ja',
  'es',
  'vi',
  'tr',
];
export const SETTINGS_PICKER: readonly LanguageCode[] = [
  'en',
  'ru',
  'ja',
  'es',
  'vi',
  'tr',
  'fr',
  'it',
];

export const isLanguage = (value: unknown): value is LanguageCode =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
