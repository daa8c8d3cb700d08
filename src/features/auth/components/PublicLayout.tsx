import type { ReactNode } from 'react';
import { PublicHeader } from './PublicHeader';
import { BoltIcon, ShieldIcon, UsersIcon } from '../../../components/publicIcons';
import { useT, type MessageKey } from '../../../i18n/i18n';
import '../auth.scss';

const PILLARS: { label: MessageKey; Icon: typeof BoltIcon }[] = [
  { label: 'public.automate', Icon: BoltIcon },
  { label: 'public.delegate', Icon: UsersIcon },
  { label: 'public.secure', Icon: ShieldIcon },
];

interface PublicLayoutProps {
  /** Wider card for the sign-up form. */
  wide?: boolean;
  children: ReactNode;
}

/**
 * The public screens' frame: a branded panel with the product's promise (left on large screens,
 * a band on top on small ones) beside a card holding the form.
 */
export function PublicLayout({ wide = false, children }: PublicLayoutProps) {
  const t = useT();
  return (
    <div className="auth-shell position-relative">
      <PublicHeader />
      {/* A landmark (complementary), so all of the page's text sits in one (axe "region"). */}
      <aside className="auth-hero text-white" aria-label={t('public.about')}>
        <div className="auth-hero-inner d-lg-flex flex-column justify-content-between">
          <div className="my-lg-auto">
            <p className="auth-promise fw-bold lh-sm mb-0">{t('public.promise')}</p>
            <ul
              className="list-unstyled d-flex flex-wrap gap-2 mt-3 mt-lg-4 mb-0"
              aria-hidden="true"
            >
              {PILLARS.map(({ label, Icon }) => (
                <li
                  key={label}
                  className="d-inline-flex align-items-center gap-2 px-3 py-1 small rounded-pill border border-light border-opacity-25 bg-white bg-opacity-10"
                >
                  <Icon className="text-warning" />
                  {t(label)}
                </li>
              ))}
            </ul>
          </div>
          <p className="d-none d-lg-block small text-white-50 mb-0">
            © {new Date().getFullYear()} CryptoSafeLock
          </p>
        </div>
      </aside>
      <main className="auth-main position-relative z-2 d-flex justify-content-center align-items-lg-center px-3 pb-5 px-lg-5">
        <div
          className={`auth-card${wide ? ' auth-card-wide' : ''} w-100 align-self-start align-self-lg-center bg-white rounded-4 shadow p-4 p-lg-5`}
        >
          {children}
        </div>
      </main>
    </div>
  );
}
