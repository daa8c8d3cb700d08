import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** The router's error screen: the spec titles it 'Unexpected Application Error!'. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main className="container py-5" role="alert">
      <h2>Unexpected Application Error!</h2>
      <pre className="text-danger text-wrap">{message}</pre>
      <a className="btn btn-primary" href="/">
        Reload
      </a>
    </main>
  );
}
