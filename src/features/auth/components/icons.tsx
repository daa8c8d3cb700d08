// The icons live in src/components/icons.tsx. LanguageMenu and PublicHeader still import them
// from here: their imports move with the import-cycle fix, then this file goes.
export { BrandMark, CheckIcon, ChevronIcon, GlobeIcon } from '../../../components/icons';
