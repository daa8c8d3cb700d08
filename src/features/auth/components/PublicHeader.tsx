import { Suspense, useCallback, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { ErrorBoundary } from '../../../components/ErrorBoundary';
import { lazyWithRetry } from '../../../components/lazyWithRetry';
import { BrandMark, ChevronIcon, GlobeIcon } from '../../../components/publicIcons';
import { currentLanguage, useT } from '../../../i18n/i18n';
import { changeLanguage } from '../../../i18n/language';
import type { LanguageCode } from '../../../i18n/languages';

// The menu loads when it is first wanted (pointer over or focus on the toggle), not with /login.
const loadMenu = () => import(/* webpackChunkName: "language-menu" */ './LanguageMenu');
const LanguageMenu = lazyWithRetry(loadMenu);

/** The language picker of the public header: the choice applies at once and is kept. */
export function LanguagePicker() {
  const t = useT();
  const [open, setOpen] = useState(false);
  const language = currentLanguage();
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  const close = useCallback((next?: LanguageCode, refocus = true) => {
    // A catalogue that cannot load leaves the language as it was; choosing again tries again.
    if (next) void changeLanguage(next).catch(() => undefined);
    setOpen(false);
    if (refocus) toggle.current?.focus();
  }, []);

  return (
    <div className="position-relative" ref={root}>
      <button
        ref={toggle}
        type="button"
        className="lang-toggle d-inline-flex align-items-center gap-1 gap-sm-2 px-2 px-sm-3 py-1 small fw-medium rounded-pill"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t('language.current', { language: t(`language.${language}`) })}
        onPointerEnter={() => void loadMenu()}
        onFocus={() => void loadMenu()}
        onClick={() => setOpen((was) => !was)}
      >
        <GlobeIcon />
        <span>{t(`language.${language}`)}</span>
        <ChevronIcon style={open ? { transform: 'rotate(180deg)' } : undefined} />
      </button>
      {open && (
        // A menu that cannot load leaves the screen as it is; opening it again tries again.
        <ErrorBoundary fallback={() => null}>
          <Suspense fallback={null}>
            <LanguageMenu id={menuId} root={root} language={language} onClose={close} />
          </Suspense>
        </ErrorBoundary>
      )}
    </div>
  );
}

/** Logo and language picker above the public screens. */
export function PublicHeader() {
  const t = useT();
  return (
    <header className="position-absolute top-0 start-0 end-0 z-3 d-flex align-items-center justify-content-between px-3 py-3 px-lg-5 py-lg-4">
      <Link
        to={paths.login}
        className="auth-brand d-inline-flex align-items-center gap-2 fw-bold text-white text-decoration-none"
        aria-label={t('public.home')}
      >
        <BrandMark />
        <span>CryptoSafeLock</span>
      </Link>
      <LanguagePicker />
    </header>
  );
}
