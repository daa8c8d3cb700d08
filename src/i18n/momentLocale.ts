import moment from 'moment';
import type { LanguageCode } from './languages';

/** Sets moment's locale, loaded with the signed-in screens' catalogue (portal/). */
export function setMomentLocale(language: LanguageCode): void {
  moment.locale(language);
}
