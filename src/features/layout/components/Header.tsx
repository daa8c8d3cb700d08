import { Link } from 'react-router-dom';
import { paths } from '../../../app/paths';
import { BrandMark, MenuIcon } from '../../../components/icons';
import { NotificationsPanel } from './NotificationsPanel';
import { SettingsPanel } from './SettingsPanel';

interface Props {
  /** Small screens: the button that opens the sidebar drawer. */
  onMenu?: () => void;
  /** Whether that drawer is open, for the button's aria-expanded. */
  menuOpen?: boolean;
}

export function Header({ onMenu, menuOpen = false }: Props) {
  return (
    <header className="portal-header">
      {onMenu ? (
        <button
          type="button"
          className="header-icon-button me-1"
          onClick={onMenu}
          aria-label="Open menu"
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? 'portal-menu' : undefined}
        >
          <MenuIcon />
        </button>
      ) : null}
      <Link to={paths.dashboard} className="portal-logo" aria-label="CryptoSafeLock home">
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
