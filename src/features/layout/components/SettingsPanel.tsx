import { useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { useRequestAccountArchiveMutation } from '../../../api/archives';
import { useAppSelector } from '../../../app/hooks';
import { Avatar } from '../../../components/Avatar';
import {
  CheckIcon,
  ChevronIcon,
  DollarIcon,
  DownloadIcon,
  GlobeIcon,
} from '../../../components/icons';
import { selectSession } from '../../../app/session/sessionSlice';
import { toast } from '../../../components/toast';
import { currentLanguage, useT } from '../../../i18n/i18n';
import { changeLanguage } from '../../../i18n/language';
import { SETTINGS_PICKER, type LanguageCode } from '../../../i18n/languages';

/** One toast for the archive, however often Download is clicked while it is prepared. */
const ARCHIVE_TOAST = 'account-archive';

/**
 * The avatar opens the settings panel (Download, Language, Currency USD($)); Language opens the
 * language list. Choosing a language switches every screen at once and closes the list.
 * Download asks for an archive of the whole account: the server prepares it in the background
 * (one at a time: asking again answers the one under way) and the notifications offer it.
 */
export function SettingsPanel() {
  const t = useT();
  const current = currentLanguage();
  const session = useAppSelector(selectSession);
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<'settings' | 'language'>('settings');
  const [requestArchive, requesting] = useRequestAccountArchiveMutation();
  const toggle = (next: boolean) => {
    setOpen(next);
    if (!next) setView('settings');
  };
  const choose = (language: LanguageCode) => {
    toggle(false);
    // A catalogue that cannot load leaves the language as it was; choosing again tries again.
    void changeLanguage(language).catch(() => undefined);
  };
  const download = async () => {
    try {
      await requestArchive().unwrap();
    } catch {
      // The refusal is already toasted (app/middleware/apiFeedback.ts); the panel stays open.
      return;
    }
    toggle(false);
    toast.info(t('archive.preparing'), { toastId: ARCHIVE_TOAST });
  };

  return (
    <Dropdown
      align="end"
      className="header-panel"
      show={open}
      onToggle={toggle}
      autoClose="outside"
    >
      {/* Named by hidden text, the avatar decorative: an aria-label "Settings" would not contain
          the visible initials (label-content-name-mismatch). */}
      <Dropdown.Toggle variant="link" className="header-avatar">
        <span className="visually-hidden">{t('settings.open')}</span>
        <Avatar name={session.name} file={session.avatar} size={38} decorative />
      </Dropdown.Toggle>
      <Dropdown.Menu className="header-panel__menu settings-panel">
        {view === 'settings' ? (
          <>
            <div className="settings-panel__account">
              <Avatar name={session.name} file={session.avatar} size={44} />
              <div className="min-w-0">
                <div className="fw-semibold text-truncate">{session.name}</div>
                <div className="small text-muted text-truncate">{session.email}</div>
              </div>
            </div>
            <div className="header-panel__title">{t('settings.title')}</div>
            <button
              type="button"
              className="settings-panel__row settings-panel__row--button"
              disabled={requesting.isLoading}
              onClick={() => void download()}
            >
              <DownloadIcon className="settings-panel__icon" />
              <span>{t('settings.download')}</span>
            </button>
            <button
              type="button"
              className="settings-panel__row settings-panel__row--button"
              onClick={() => setView('language')}
            >
              <GlobeIcon className="settings-panel__icon" width={20} height={20} />
              <span>{t('language.label')}</span>
              <span className="ms-auto small text-muted" lang={current}>
                {t(`language.${current}`)}
              </span>
              <ChevronIcon className="settings-panel__next" width={16} height={16} />
            </button>
            <div className="settings-panel__row">
              <DollarIcon className="settings-panel__icon" />
              <span>{t('settings.currency')}</span>
              <span className="ms-auto small fw-semibold">USD($)</span>
            </div>
          </>
        ) : (
          <section aria-label={t('language.label')}>
            <div className="header-panel__title d-flex align-items-center gap-2">
              <button
                type="button"
                className="btn btn-link btn-sm p-0 settings-panel__back"
                onClick={() => setView('settings')}
                aria-label={t('settings.back')}
              >
                <ChevronIcon width={16} height={16} />
              </button>
              {t('language.label')}
            </div>
            <ul className="list-unstyled mb-0">
              {SETTINGS_PICKER.map((language) => (
                <li key={language}>
                  <button
                    type="button"
                    className={`settings-panel__row settings-panel__row--button${language === current ? ' active' : ''}`}
                    aria-current={language === current ? 'true' : undefined}
                    onClick={() => choose(language)}
                  >
                    <span lang={language}>{t(`language.${language}`)}</span>
                    {language === current ? (
                      <CheckIcon className="ms-auto" width={16} height={16} />
                    ) : null}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </Dropdown.Menu>
    </Dropdown>
  );
}
