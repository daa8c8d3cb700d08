import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Country } from '../../../api/generated/auth.gen';
import { ChevronIcon } from '../../../components/publicIcons';
import { currentLanguage, useT } from '../../../i18n/i18n';
import '../../../i18n/auth';
import { countryName } from '../../../i18n/countryName';
import type { LanguageCode } from '../../../i18n/languages';

/** PageUp / PageDown move this many options: the five the list shows at once. */
export const COUNTRY_PAGE_SIZE = 5;

export const countryLabel = (country: Country) =>
  `${countryName(country)} (${country.calling_code})`;

/** The label 'Name (+code)', or the English name, contains what was typed, ignoring case. */
export function matchesCountry(country: Country, query: string): boolean {
  const typed = query.trim().toLowerCase();
  return (
    countryLabel(country).toLowerCase().includes(typed) ||
    country.name.toLowerCase().includes(typed)
  );
}

/** The server's list (by English name) in the order of the names in the language in use. */
function inLanguageOrder(
  countries: readonly Country[],
  language: LanguageCode,
): readonly Country[] {
  if (language === 'en') return countries;
  const collator = new Intl.Collator(language);
  return [...countries].sort((a, b) => collator.compare(countryName(a), countryName(b)));
}

interface CountrySelectProps {
  /** The input's id (the Form.Group's controlId, so the label points at it). */
  id: string;
  countries: readonly Country[];
  /** The selected country's id, '' for none. */
  value: string;
  onChange: (countryId: string) => void;
  isInvalid?: boolean;
  loading?: boolean;
  describedBy?: string;
}

/**
 * Searchable country dropdown (ARIA combobox with a listbox): type to filter by name or calling
 * code, arrows / PageUp / PageDown / Enter / Escape from the keyboard, options 'Name (+code)'.
 */
export function CountrySelect({
  id,
  countries,
  value,
  onChange,
  isInvalid = false,
  loading = false,
  describedBy,
}: CountrySelectProps) {
  const t = useT();
  const listId = `${id}-list`;
  const selected = countries.find((country) => country.id === value);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);

  // The language in use: this draws again when it changes (useT), with its names and order.
  const language = currentLanguage();
  const options = useMemo(
    () =>
      inLanguageOrder(countries, language).filter((country) =>
        matchesCountry(country, query ?? ''),
      ),
    [countries, query, language],
  );

  useEffect(() => {
    if (!open) return;
    const option = list.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    // jsdom has no scrollIntoView.
    option?.scrollIntoView?.({ block: 'nearest' });
  }, [active, open]);

  const show = () => {
    if (open) return;
    const current = selected ? options.indexOf(selected) : -1;
    setActive(Math.max(0, current));
    setOpen(true);
  };

  const close = () => {
    setOpen(false);
    setQuery(null);
  };

  const choose = (country: Country) => {
    onChange(country.id);
    close();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = options.length - 1;
    const moveTo = (index: number) => {
      event.preventDefault();
      if (!open) show();
      else setActive(Math.min(Math.max(index, 0), Math.max(last, 0)));
    };
    switch (event.key) {
      case 'ArrowDown':
        return moveTo(active + 1);
      case 'ArrowUp':
        return moveTo(active - 1);
      case 'PageDown':
        return moveTo(active + COUNTRY_PAGE_SIZE);
      case 'PageUp':
        return moveTo(active - COUNTRY_PAGE_SIZE);
      case 'Enter': {
        const option = options[active];
        if (open && option) {
          event.preventDefault();
          choose(option);
        }
        return;
      }
      case 'Escape':
        if (open) {
          event.preventDefault();
          close();
        }
        return;
      default:
        return;
    }
  };

  const text = query ?? (selected ? countryLabel(selected) : '');
  const activeOption = open ? options[active] : undefined;

  return (
    <div className="position-relative has-end-btn">
      <input
        ref={input}
        id={id}
        type="text"
        role="combobox"
        className={`form-control${isInvalid ? ' is-invalid' : ''}`}
        placeholder={loading ? t('country.loading') : t('country.search')}
        autoComplete="off"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeOption ? `${id}-${activeOption.id}` : undefined}
        aria-invalid={isInvalid || undefined}
        aria-describedby={describedBy}
        value={text}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onClick={show}
        onFocus={show}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      <button
        type="button"
        className="position-absolute top-50 end-0 translate-middle-y me-2 p-1 lh-1 border-0 bg-transparent text-body-secondary"
        tabIndex={-1}
        aria-label={t('country.show')}
        // Keep the focus in the input (its blur would close the menu again).
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => {
          if (open) return close();
          input.current?.focus();
          show();
        }}
      >
        <ChevronIcon />
      </button>
      {open && (
        <ul
          ref={list}
          id={listId}
          role="listbox"
          aria-label={t('country.list')}
          className="pop-menu combo-menu position-absolute start-0 end-0 mt-1 p-1 list-unstyled overflow-auto bg-white border rounded-3 shadow"
        >
          {options.map((country, index) => (
            <li
              key={country.id}
              id={`${id}-${country.id}`}
              role="option"
              data-index={index}
              aria-selected={country.id === value}
              className={`combo-option d-flex align-items-center px-3 rounded-2${index === active ? ' active' : ''}${country.id === value ? ' text-primary fw-semibold' : ''}`}
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => setActive(index)}
              onClick={() => choose(country)}
            >
              {countryLabel(country)}
            </li>
          ))}
          {options.length === 0 && (
            <li className="px-3 py-2 text-body-secondary" role="presentation">
              {loading ? t('country.loading') : t('country.none')}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
