// The icons live in src/components/publicIcons.tsx. LanguageMenu and PublicHeader still import them
// from here: their imports move with the import-cycle fix, then this file goes.
export { BrandMark, CheckIcon, ChevronIcon, GlobeIcon } from '../../../components/publicIcons';
