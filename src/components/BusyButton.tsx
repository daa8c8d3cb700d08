import Button, { type ButtonProps } from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

/** A button that shows a spinner while `busy` and is disabled then (unless `disabled` says). */
export function BusyButton({
  busy,
  disabled,
  children,
  ...button
}: ButtonProps & { busy: boolean }) {
  return (
    <Button {...button} disabled={disabled ?? busy}>
      {busy && <Spinner size="sm" className="me-2" aria-hidden />}
      {children}
    </Button>
  );
}
