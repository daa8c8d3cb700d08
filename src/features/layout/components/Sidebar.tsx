import { useId, useState, type ComponentType, type ReactNode, type SVGProps } from 'react';
import Collapse from 'react-bootstrap/Collapse';
import { NavLink } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { Avatar } from '../../../components/Avatar';
import {
  ChevronIcon,
  GridIcon,
  HomeIcon,
  KeyIcon,
  LayersIcon,
  LockIcon,
  PlusIcon,
  ShieldIcon,
  UserIcon,
} from '../../../components/icons';
import { LogoutButton } from '../../../components/LogoutButton';
import { selectApps, selectSession } from '../../../app/session/sessionSlice';
import { BalanceCard } from './BalanceCard';
import { useT, type MessageKey } from '../../../i18n/i18n';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

interface LinkProps {
  to: string;
  icon?: Icon;
  children: ReactNode;
  onNavigate?: () => void;
  /** Also active on the paths below `to` (an app's tabs). */
  partial?: boolean;
}

function SideLink({ to, icon: IconComponent, children, onNavigate, partial = false }: LinkProps) {
  return (
    <li>
      <NavLink
        to={to}
        end={!partial}
        className={({ isActive }) => `sidebar__link${isActive ? ' active' : ''}`}
        onClick={onNavigate}
      >
        {IconComponent ? (
          <IconComponent className="sidebar__icon" />
        ) : (
          <span className="sidebar__dot" />
        )}
        <span className="text-truncate">{children}</span>
      </NavLink>
    </li>
  );
}

/** The account's screens, first in the menu. */
const ACCOUNT_LINKS: { to: string; icon: Icon; label: MessageKey }[] = [
  { to: paths.dashboard, icon: HomeIcon, label: 'layout.home' },
  { to: paths.kyc, icon: ShieldIcon, label: 'layout.kyc' },
  { to: paths.profile, icon: UserIcon, label: 'layout.profile' },
  { to: paths.authentication, icon: KeyIcon, label: 'layout.authentication' },
  { to: paths.changePassword, icon: LockIcon, label: 'layout.changePassword' },
];

function Group({
  title,
  icon: IconComponent,
  children,
}: {
  title: string;
  icon: Icon;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(true);
  const id = useId();
  return (
    <li>
      <button
        type="button"
        className="sidebar__link sidebar__group"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        <IconComponent className="sidebar__icon" />
        <span>{title}</span>
        <ChevronIcon className={`sidebar__chevron${open ? ' open' : ''}`} width={16} height={16} />
      </button>
      <Collapse in={open}>
        <div id={id}>
          <ul className="sidebar__sublist">{children}</ul>
        </div>
      </Collapse>
    </li>
  );
}

/** Balance, every link of the spec's sidebar, the app list and Logout. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const session = useAppSelector(selectSession);
  const apps = useAppSelector(selectApps);
  const t = useT();
  return (
    <div className="sidebar">
      {/* Scrolls on its own when taller than the window; Logout stays in view below. */}
      <div className="sidebar__scroll">
        <div className="sidebar__account">
          <Avatar name={session.name} file={session.avatar} size={44} />
          <div className="min-w-0">
            <div className="sidebar__name text-truncate">{session.name}</div>
            <div className="sidebar__username text-truncate">@{session.username}</div>
          </div>
        </div>
        <BalanceCard onNavigate={onNavigate} />
        <nav aria-label={t('layout.mainMenu')}>
          <ul className="sidebar__list">
            {ACCOUNT_LINKS.map(({ to, icon, label }) => (
              <SideLink key={to} to={to} icon={icon} onNavigate={onNavigate}>
                {t(label)}
              </SideLink>
            ))}
            <Group title={t('layout.subscriptions')} icon={LayersIcon}>
              <SideLink to={paths.subscriptions} onNavigate={onNavigate}>
                {t('layout.packages')}
              </SideLink>
              <SideLink to={paths.history} onNavigate={onNavigate}>
                {t('layout.history')}
              </SideLink>
              <SideLink to={paths.wallet} onNavigate={onNavigate}>
                {t('layout.wallet')}
              </SideLink>
            </Group>
            <Group title={t('layout.apps')} icon={GridIcon}>
              {apps.map((app) => (
                <SideLink key={app.id} to={paths.myApp(app.id)} onNavigate={onNavigate} partial>
                  {app.app_name}
                </SideLink>
              ))}
              <SideLink to={paths.createApp} icon={PlusIcon} onNavigate={onNavigate}>
                {t('layout.createApp')}
              </SideLink>
            </Group>
          </ul>
        </nav>
      </div>
      <div className="sidebar__footer">
        <LogoutButton className="w-100" variant="outline-light" />
      </div>
    </div>
  );
}
