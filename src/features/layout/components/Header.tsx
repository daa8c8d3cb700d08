import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { BrandMark, MenuIcon } from '../../../components/icons';
import { NotificationsPanel } from './NotificationsPanel';
import { SettingsPanel } from './SettingsPanel';
import { useT } from '../../../i18n/i18n';

interface Props {
  /** Small screens: the button that opens the sidebar drawer. */
  onMenu?: () => void;
  /** Whether that drawer is open, for the button's aria-expanded. */
  menuOpen?: boolean;
}

export function Header({ onMenu, menuOpen = false }: Props) {
  const t = useT();
  return (
    <header className="portal-header">
      {onMenu ? (
        <button
          type="button"
          className="header-icon-button me-1"
          onClick={onMenu}
          aria-label={t('layout.openMenu')}
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? 'portal-menu' : undefined}
        >
          <MenuIcon />
        </button>
      ) : null}
      <Link to={paths.dashboard} className="portal-logo" aria-label={t('public.home')}>
        <BrandMark size={34} />
        <span className="portal-logo__name">CryptoSafeLock</span>
      </Link>
      <div className="portal-header__actions">
        <NotificationsPanel />
        <SettingsPanel />
      </div>
    </header>
  );
}
