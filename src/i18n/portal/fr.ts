// The signed-in screens in this language: their catalogue and moment's locale, in one chunk.
import 'moment/locale/fr';

export { default } from '../catalogues/portal/fr.json';
