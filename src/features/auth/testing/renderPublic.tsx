import { Route, Routes, useLocation } from 'react-router-dom';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import type { SessionState } from '../../../app/session/sessionSlice';
import LoginPage from '../LoginPage';
import RegisterPage from '../RegisterPage';
import ResetPasswordPage from '../ResetPasswordPage';

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

/**
 * A public screen in the real store, with stand-ins for where it leads (the dashboard and the
 * signed-in layout belong to other features) and the current URL readable in the page.
 */
export function renderPublic(route: string, options: { session?: Partial<SessionState> } = {}) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/reset" element={<ResetPasswordPage />} />
        <Route path="/app/dashboard" element={<h1>Dashboard</h1>} />
      </Routes>
      <Where />
    </>,
    { route, ...options },
  );
}
