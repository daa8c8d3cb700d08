// The signed-in screens in this language: their catalogue and moment's locale, in one chunk.
import 'moment/locale/ru';

export { default } from '../catalogues/portal/ru.json';
