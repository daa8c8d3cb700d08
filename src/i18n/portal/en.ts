// The signed-in screens in English: their catalogue (moment's English is built in).
export { default } from '../catalogues/portal/en.json';
