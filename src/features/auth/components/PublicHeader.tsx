import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { BrandMark, CheckIcon, ChevronIcon, GlobeIcon } from './icons';

export const PUBLIC_LANGUAGES = ['English', 'French', 'Italian'] as const;
type Language = (typeof PUBLIC_LANGUAGES)[number];

/**
 * The language picker of the public header. The spec shows the choice having no effect, so it
 * only marks the chosen language (kept for this visit).
 */
export function LanguagePicker() {
  const [open, setOpen] = useState(false);
  const [language, setLanguage] = useState<Language>('English');
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    items.current[PUBLIC_LANGUAGES.indexOf(language)]?.focus();
    const close = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open, language]);

  const choose = (next: Language) => {
    setLanguage(next);
    setOpen(false);
    toggle.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const current = items.current.findIndex((item) => item === document.activeElement);
    const move = (index: number) => {
      event.preventDefault();
      items.current[(index + PUBLIC_LANGUAGES.length) % PUBLIC_LANGUAGES.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(current + 1);
    else if (event.key === 'ArrowUp') move(current - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(PUBLIC_LANGUAGES.length - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      setOpen(false);
      if (event.key === 'Escape') toggle.current?.focus();
    }
  };

  return (
    <div className="position-relative" ref={root}>
      <button
        ref={toggle}
        type="button"
        className="lang-toggle d-inline-flex align-items-center gap-1 gap-sm-2 px-2 px-sm-3 py-1 small fw-medium rounded-pill"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Language: ${language}`}
        onClick={() => setOpen((was) => !was)}
      >
        <GlobeIcon />
        <span>{language}</span>
        <ChevronIcon style={open ? { transform: 'rotate(180deg)' } : undefined} />
      </button>
      {open && (
        <ul
          id={menuId}
          role="menu"
          aria-label="Language"
          className="pop-menu position-absolute end-0 mt-2 p-1 list-unstyled bg-white rounded-3 shadow"
          style={{ minWidth: '10rem' }}
          onKeyDown={onMenuKey}
        >
          {PUBLIC_LANGUAGES.map((option, index) => (
            <li key={option} role="none">
              <button
                ref={(element) => {
                  items.current[index] = element;
                }}
                type="button"
                role="menuitemradio"
                aria-checked={option === language}
                className={`d-flex w-100 align-items-center justify-content-between px-3 py-2 border-0 bg-transparent rounded-2 text-start${option === language ? ' active text-primary fw-semibold' : ''}`}
                onClick={() => choose(option)}
              >
                {option}
                {option === language && <CheckIcon />}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Logo and language picker above the public screens. */
export function PublicHeader() {
  return (
    <header className="position-absolute top-0 start-0 end-0 z-3 d-flex align-items-center justify-content-between px-3 py-3 px-lg-5 py-lg-4">
      <Link
        to={paths.login}
        className="auth-brand d-inline-flex align-items-center gap-2 fw-bold text-white text-decoration-none"
        aria-label="CryptoSafeLock home"
      >
        <BrandMark />
        <span>CryptoSafeLock</span>
      </Link>
      <LanguagePicker />
    </header>
  );
}

export default PublicHeader;
