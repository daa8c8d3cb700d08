import type { Messages } from '@lingui/core';
import { currentLanguage, i18n, STORAGE_KEY } from './i18n';
import type { LanguageCode } from './languages';

// Loads catalogues and switches languages: a chunk of its own, out of /login's first load.

type Namespace = 'public' | 'portal';

const catalogue = (namespace: Namespace, language: LanguageCode): Promise<Messages> =>
  (namespace === 'public'
    ? // English is in the first load (i18n.ts): ./public/ has the other languages only.
      import(`./public/${language}`)
    : import(`./portal/${language}`)
  ).then((module: { default: Messages }) => module.default);

/** The namespaces the screens drawn so far need, each loaded in the language in use. */
const wanted = new Set<Namespace>(['public']);
const loaded = new Set<string>(['public:en']);

async function ensure(namespace: Namespace, language: LanguageCode): Promise<void> {
  if (loaded.has(`${namespace}:${language}`)) return;
  i18n.load(language, await catalogue(namespace, language));
  loaded.add(`${namespace}:${language}`);
}

/** Once the signed-in screens' catalogue (and with it moment's locale) is in. */
const moment = (language: LanguageCode) =>
  import('./momentLocale').then((module) => module.setMomentLocale(language));

/**
 * Loads a namespace (and, for the signed-in screens, moment's locale) in the language in use;
 * the screens that need it render once it is in.
 */
export async function loadNamespace(namespace: Namespace): Promise<void> {
  wanted.add(namespace);
  const language = currentLanguage();
  await ensure(namespace, language);
  if (namespace === 'portal') await moment(language);
}

/**
 * Switches every screen to `language` at once: its catalogues (and moment's locale once dates
 * are shown) load first, then every component that translates draws again. Kept across sessions
 * in this browser and named in `<html lang>`.
 */
export async function changeLanguage(language: LanguageCode): Promise<void> {
  await Promise.all([...wanted].map((namespace) => ensure(namespace, language)));
  if (wanted.has('portal')) await moment(language);
  i18n.activate(language);
  document.documentElement.lang = language;
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Storage refused (a private window's quota): the choice holds for this visit.
  }
}
