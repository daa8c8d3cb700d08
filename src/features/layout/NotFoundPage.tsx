import { Link, useMatch } from 'react-router-dom';
import { paths } from '../../app/paths';

export default function NotFoundPage() {
  // Under /app the portal's layout already holds the page's one <main>.
  const Region = useMatch('/app/*') ? 'div' : 'main';
  return (
    <Region className="not-found d-flex flex-column align-items-center justify-content-center text-center p-4">
      <h1 className="display-1 fw-bold text-primary">404</h1>
      <p className="lead">Oops! Error: 404 This page does not exist!</p>
      <Link className="btn btn-primary" to={paths.dashboard}>
        Back to Home
      </Link>
    </Region>
  );
}
