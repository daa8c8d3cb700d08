import { Link } from 'react-router-dom';
import { useGetAppsQuery } from '../../api/apps';
import { paths } from '../../app/paths';
import { AppCard } from '../../components/AppCard';
import { PlusIcon } from '../../components/icons';
import { QueryState } from '../../components/QueryState';

/** Every saved app as the same card as the dashboard's. */
export default function AllAppsPage() {
  const apps = useGetAppsQuery();
  return (
    <div>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h4 mb-0">All Apps</h1>
        <Link to={paths.createApp} className="btn btn-primary btn-sm">
          <PlusIcon width={16} height={16} className="me-1" />
          Create New App
        </Link>
      </div>
      <QueryState query={apps} what="the apps" isEmpty={(list) => list.data.length === 0}>
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
