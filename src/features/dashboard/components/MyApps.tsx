import { Link } from 'react-router-dom';
import type { App } from '../../../api/generated/apps.gen';
import { paths } from '../../../app/paths';
import { AppCard } from '../../../components/AppCard';
import { PlusIcon } from '../../../components/icons';
import { useT } from '../../../i18n/i18n';

/** Shown only with apps: the first 2 as cards, with the way to all of them and a new one. */
export function MyApps({ apps }: { apps: App[] }) {
  const t = useT();
  if (apps.length === 0) return null;
  return (
    <section aria-labelledby="my-apps-title">
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h2 id="my-apps-title" className="h5 mb-0">
          {t('dashboard.myApps')}
        </h2>
        <div className="d-flex gap-2">
          <Link to={paths.allApps} className="btn btn-outline-secondary btn-sm">
            {t('dashboard.viewAll')}
          </Link>
          <Link to={paths.createApp} className="btn btn-primary btn-sm">
            <PlusIcon width={16} height={16} className="me-1" />
            {t('layout.createApp')}
          </Link>
        </div>
      </div>
      <div className="row g-3">
        {apps.slice(0, 2).map((app) => (
          <div className="col-12 col-md-6" key={app.id}>
            <AppCard app={app} />
          </div>
        ))}
      </div>
    </section>
  );
}
