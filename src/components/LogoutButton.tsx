import Button, { type ButtonProps } from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useNavigate } from 'react-router-dom';
import { useLogoutMutation } from '../api/auth';
import { baseApi } from '../api/baseApi';
import { useAppDispatch } from '../app/hooks';
import { paths } from '../app/paths';
import { loggedOut } from '../app/session/sessionSlice';
import { useT } from '../i18n/i18n';

export interface LogoutButtonProps {
  className?: string;
  variant?: ButtonProps['variant'];
}

/**
 * Revokes the session on the server, then forgets it here and goes to /login. A failed call is
 * toasted by the API middleware (a 401 there already ends the session), so the user stays put.
 */
export function LogoutButton({ className, variant = 'outline-secondary' }: LogoutButtonProps) {
  const [logout, { isLoading }] = useLogoutMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const t = useT();

  const onClick = async () => {
    try {
      await logout().unwrap();
    } catch {
      return;
    }
    dispatch(loggedOut());
    dispatch(baseApi.util.resetApiState());
    navigate(paths.login, { replace: true });
  };

  return (
    <Button
      type="button"
      className={className}
      variant={variant}
      disabled={isLoading}
      aria-busy={isLoading}
      onClick={() => void onClick()}
    >
      {isLoading && (
        <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
      )}
      {t('layout.logout')}
    </Button>
  );
}
