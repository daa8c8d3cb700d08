import { Outlet } from 'react-router-dom';
import '../../styles/portal.scss';

// Placeholder until the portal slice lands.
export default function AppLayout() {
  return (
    <main className="container py-4">
      <Outlet />
    </main>
  );
}
