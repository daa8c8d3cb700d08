import { Suspense } from 'react';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { Outlet } from 'react-router-dom';
import { Loading } from '../../components/QueryState';
import { Header } from './components/Header';
import { Sidebar } from './components/Sidebar';
import { useDrawer } from './useDrawer';
import { useMediaQuery } from '../../components/useMediaQuery';
import '../../styles/portal.scss';
import './layout.scss';
import { useT } from '../../i18n/i18n';

/** The signed-in theme's small breakpoint: below it the sidebar is a temporary drawer. */
export const DRAWER_BREAKPOINT = '(min-width: 600px)';

/** The signed-in shell: header, the 280 px sidebar (permanent from 600 px up, a drawer below). */
export default function AppLayout() {
  const wide = useMediaQuery(DRAWER_BREAKPOINT);
  const drawer = useDrawer();
  const t = useT();

  return (
    <div className="portal">
      <a className="portal__skip" href="#main">
        {t('layout.skip')}
      </a>
      <Header onMenu={wide ? undefined : drawer.toggle} menuOpen={drawer.open} />
      <div className="portal__body">
        {wide ? (
          <aside className="portal__sidebar">
            <Sidebar />
          </aside>
        ) : (
          <Offcanvas
            show={drawer.open}
            onHide={drawer.close}
            onExited={drawer.closed}
            placement="start"
            className="portal__drawer"
            aria-label={t('layout.menu')}
            id="portal-menu"
          >
            <Offcanvas.Header closeButton closeVariant="white" closeLabel={t('layout.closeMenu')} />
            <Offcanvas.Body className="p-0">
              <Sidebar onNavigate={drawer.close} />
            </Offcanvas.Body>
          </Offcanvas>
        )}
        {/* tabIndex: the skip link moves focus here, not only the scroll position. */}
        <main id="main" className="portal__main" tabIndex={-1}>
          {/* The shell stays on screen, with a spinner, while a page's chunk loads the first time. */}
          <Suspense
            fallback={
              <div className="text-center py-5">
                <Loading label={t('layout.loadingPage')} />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
