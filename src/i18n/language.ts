import type { LanguageCode } from './languages';

// The entry points to loader.ts, which each load it first: it stays out of the first load.
const loader = () => import('./loader');

/** Switches the portal to `language` (loader.ts). */
export const changeLanguage = (language: LanguageCode): Promise<void> =>
  loader().then((module) => module.changeLanguage(language));

/** Loads the signed-in screens' catalogue and moment's locale in the language in use. */
export const loadPortalCatalogue = (): Promise<void> =>
  loader().then((module) => module.loadNamespace('portal'));
