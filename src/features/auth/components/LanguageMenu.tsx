import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { CheckIcon } from '../../../components/publicIcons';
import { useT } from '../../../i18n/i18n';
import { PUBLIC_PICKER, type LanguageCode } from '../../../i18n/languages';

interface LanguageMenuProps {
  id: string;
  /** The picker: a press outside it closes the menu. */
  root: RefObject<HTMLDivElement | null>;
  language: LanguageCode;
  /** Closes the menu, with the chosen language if one was chosen; refocus: back to the toggle. */
  onClose: (chosen?: LanguageCode, refocus?: boolean) => void;
}

/** The open language menu: arrow keys, Home/End, Escape and Tab as in a menu button pattern. */
export default function LanguageMenu({ id, root, language, onClose }: LanguageMenuProps) {
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const t = useT();

  useEffect(() => {
    items.current[PUBLIC_PICKER.indexOf(language)]?.focus();
    const closeOutside = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) onClose(undefined, false);
    };
    document.addEventListener('mousedown', closeOutside);
    return () => document.removeEventListener('mousedown', closeOutside);
  }, [root, language, onClose]);

  const onMenuKey = (event: KeyboardEvent<HTMLUListElement>) => {
    const current = items.current.findIndex((item) => item === document.activeElement);
    const move = (index: number) => {
      event.preventDefault();
      items.current[(index + PUBLIC_PICKER.length) % PUBLIC_PICKER.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(current + 1);
    else if (event.key === 'ArrowUp') move(current - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(PUBLIC_PICKER.length - 1);
    else if (event.key === 'Escape') onClose();
    else if (event.key === 'Tab') onClose(undefined, false);
  };

  return (
    <ul
      id={id}
      role="menu"
      aria-label={t('language.label')}
      className="pop-menu position-absolute end-0 mt-2 p-1 list-unstyled bg-white rounded-3 shadow"
      style={{ minWidth: '10rem' }}
      onKeyDown={onMenuKey}
    >
      {PUBLIC_PICKER.map((option, index) => (
        <li key={option} role="none">
          <button
            ref={(element) => {
              items.current[index] = element;
            }}
            type="button"
            role="menuitemradio"
            aria-checked={option === language}
            className={`d-flex w-100 align-items-center justify-content-between px-3 py-2 border-0 bg-transparent rounded-2 text-start${option === language ? ' active text-primary fw-semibold' : ''}`}
            onClick={() => onClose(option)}
          >
            <span lang={option}>{t(`language.${option}`)}</span>
            {option === language && <CheckIcon />}
          </button>
        </li>
      ))}
    </ul>
  );
}
