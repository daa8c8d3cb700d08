import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import type { App } from '../api/generated/apps.gen';
import { paths } from '../app/paths';
import { formatDate } from '../lib/format';
import { useT } from '../i18n/i18n';
import './appCard.scss';

/** Only http(s) addresses become links; anything else is shown as text. */
const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

/** One app as the dashboard's 'My Apps' and /app/all-app show it. */
/** `level`: the name's heading level, one below the heading the cards sit under. */
export function AppCard({ app, level = 3 }: { app: App; level?: 2 | 3 }) {
  const t = useT();
  const Heading = level === 2 ? 'h2' : 'h3';
  const ready = app.status === 1;
  return (
    <Card className="app-card h-100" as="article" aria-label={app.app_name}>
      <Card.Body className="d-flex flex-column">
        <div className="d-flex align-items-start justify-content-between gap-2 mb-2">
          <div className="d-flex align-items-center gap-2 min-w-0">
            <span className="app-card__mark" aria-hidden="true">
              {app.app_name.trim().charAt(0).toUpperCase()}
            </span>
            <Heading className="h6 mb-0 text-truncate" title={app.app_name}>
              {app.app_name}
            </Heading>
          </div>
          <Badge bg={ready ? 'success' : 'secondary'} className="app-card__status">
            {ready ? t('appCard.ready') : t('appCard.notReady')}
          </Badge>
        </div>
        <p className="app-card__info text-muted small mb-3">{app.info || '----'}</p>
        <dl className="app-card__facts small mb-3">
          <dt>{t('appCard.projectUrl')}</dt>
          <dd className="text-truncate">
            {isWebUrl(app.project_url) ? (
              <a href={app.project_url} target="_blank" rel="noopener noreferrer">
                {app.project_url}
              </a>
            ) : (
              app.project_url
            )}
          </dd>
          <dt>{t('appCard.created')}</dt>
          <dd>{formatDate(app.created_at)}</dd>
        </dl>
        <Link
          to={paths.myApp(app.id)}
          className="btn btn-outline-primary btn-sm mt-auto align-self-start"
          aria-label={t('appCard.viewDetailsOf', { name: app.app_name })}
        >
          {t('appCard.viewDetails')}
        </Link>
      </Card.Body>
    </Card>
  );
}
