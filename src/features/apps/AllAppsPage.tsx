import { Link } from 'react-router-dom';
import { useGetAppsQuery } from '../../api/apps';
import { paths } from '../../app/paths';
import { AppCard } from '../../components/AppCard';
import { PlusIcon } from '../../components/icons';
import { QueryState } from '../../components/QueryState';
import { PageTitle } from '../../components/PageTitle';
import { useT } from '../../i18n/i18n';

/** Every saved app as the same card as the dashboard's. */
export default function AllAppsPage() {
  const t = useT();
  const apps = useGetAppsQuery();
  return (
    <div>
      <PageTitle
        actions={
          <Link to={paths.createApp} className="btn btn-primary btn-sm">
            <PlusIcon width={16} height={16} className="me-1" />
            {t('layout.createApp')}
          </Link>
        }
      >
        {t('title.allApps')}
      </PageTitle>
      <QueryState query={apps} what={t('apps.what')} isEmpty={(list) => list.data.length === 0}>
        {(list) => (
          <div className="row g-3">
            {list.data.map((app) => (
              <div className="col-12 col-md-6 col-xl-4" key={app.id}>
                <AppCard app={app} level={2} />
              </div>
            ))}
          </div>
        )}
      </QueryState>
    </div>
  );
}
