import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router-dom';
import { useGetAppsQuery } from '../../api/apps';
import { paths } from '../../app/paths';
import { AppCard } from '../../components/AppCard';
import { EmptyState } from '../../components/EmptyState';
import { PlusIcon } from '../../components/icons';

/** Every saved app as the same card as the dashboard's. */
export default function AllAppsPage() {
  const { data, isLoading } = useGetAppsQuery();
  const apps = data?.data ?? [];
  return (
    <div>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h4 mb-0">All Apps</h1>
        <Link to={paths.createApp} className="btn btn-primary btn-sm">
          <PlusIcon width={16} height={16} className="me-1" />
          Create New App
        </Link>
      </div>
      {isLoading ? (
        <div className="text-center py-5">
          <Spinner animation="border" role="status">
            <span className="visually-hidden">Loading</span>
          </Spinner>
        </div>
      ) : apps.length === 0 ? (
        <div className="card">
          <EmptyState />
        </div>
      ) : (
        <div className="row g-3">
          {apps.map((app) => (
            <div className="col-12 col-md-6 col-xl-4" key={app.id}>
              <AppCard app={app} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
