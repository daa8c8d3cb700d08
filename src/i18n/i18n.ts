import { setupI18n, type Messages } from '@lingui/core';
import { useSyncExternalStore } from 'react';
import publicEn from './catalogues/public/en.json';
import type authEn from './catalogues/auth/en.json';
import type portalEn from './catalogues/portal/en.json';
import { isLanguage, type LanguageCode } from './languages';

// Every string the portal shows comes from a catalogue: catalogues/<namespace>/<language>.json,
// key to ICU message ({name} marks a value). The production build compiles each message
// (webpack.config.ts), so the runtime only fills values in. The public namespace (public screens,
// pickers, titles) is in the first load in English; everything that loads another catalogue is
// in a chunk of its own (loader.ts, through language.ts). The auth namespace (sign-up, password
// reset, the password checklist) comes in English with its screens (auth.ts), in another language
// with the public catalogue (public/).

export type MessageKey = keyof typeof publicEn | keyof typeof authEn | keyof typeof portalEn;
type MessageValues = Record<string, string | number>;
export type Translate = (key: MessageKey, values?: MessageValues) => string;

export const STORAGE_KEY = 'portal.language';

export const i18n = setupI18n({
  locale: 'en',
  messages: { en: publicEn as unknown as Messages },
});

/** The language in use. */
export const currentLanguage = (): LanguageCode => (isLanguage(i18n.locale) ? i18n.locale : 'en');

/** The language chosen in this browser before, else English. */
export function storedLanguage(): LanguageCode {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return isLanguage(stored) ? stored : 'en';
  } catch {
    return 'en';
  }
}

/** Outside components (toasts, validation rules): the message in the language in use. */
export const t: Translate = (key, values) => i18n._(key, values);

// A new function at each of Lingui's 'change' (a language activated, a catalogue loaded), for
// React to subscribe to: in place of @lingui/react's provider, which with its Trans component cost
// 1.2 KiB of /login.
let translate: Translate = (key, values) => i18n._(key, values);
i18n.on('change', () => {
  translate = (key, values) => i18n._(key, values);
});
const subscribe = (onChange: () => void) => i18n.on('change', onChange);
const snapshot = () => translate;

/**
 * In a component: the message in the language in use. The component draws again when the
 * language changes or a catalogue arrives, and gets a new function then (an effect can depend
 * on it).
 */
export function useT(): Translate {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
