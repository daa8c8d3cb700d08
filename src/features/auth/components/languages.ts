// The public header's language choices, in a module of their own so that the lazily loaded menu
// does not import the header that loads it.
export const PUBLIC_LANGUAGES = ['English', 'French', 'Italian'] as const;
export type Language = (typeof PUBLIC_LANGUAGES)[number];
