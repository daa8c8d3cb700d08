// The signed-in screens in this language: their catalogue and moment's locale, in one chunk.
import 'moment/locale/vi';

export { default } from '../catalogues/portal/vi.json';
