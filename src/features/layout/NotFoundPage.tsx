import { Link, useMatch } from 'react-router-dom';
import { paths } from '../../app/paths';
import { useT } from '../../i18n/i18n';
// Public and signed-in alike: its words are the auth catalogue's, which comes with it in English.
import '../../i18n/auth';

export default function NotFoundPage() {
  const t = useT();
  // Under /app the portal's layout already holds the page's one <main>.
  const Region = useMatch('/app/*') ? 'div' : 'main';
  return (
    <Region className="not-found d-flex flex-column align-items-center justify-content-center text-center p-4">
      <h1 className="display-1 fw-bold text-primary">404</h1>
      <p className="lead">{t('notFound.message')}</p>
      <Link className="btn btn-primary" to={paths.dashboard}>
        {t('notFound.back')}
      </Link>
    </Region>
  );
}
