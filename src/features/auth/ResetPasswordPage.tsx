import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router-dom';
import { paths } from '../../app/paths';
import { PublicLayout } from './components/PublicLayout';

/**
 * Reset Password as the spec shows it: non-functional (the Reset button stays disabled), with
 * Sign In and Sign Up links that both go to /login.
 */
export default function ResetPasswordPage() {
  return (
    <PublicLayout>
      <h1 className="h3 fw-bold mb-1">Reset Password</h1>
      <p className="text-body-secondary mb-4">Enter Username for changing account password.</p>
      <Form noValidate onSubmit={(event) => event.preventDefault()}>
        <Form.Group className="mb-4" controlId="reset-email">
          <Form.Label>Email</Form.Label>
          <Form.Control type="email" name="email" placeholder="Email" autoComplete="email" />
        </Form.Group>
        <Button type="submit" className="w-100 py-2 fw-semibold" disabled>
          Reset
        </Button>
      </Form>
      <p className="text-center text-body-secondary mt-4 mb-0">
        <Link to={paths.login}>Sign In</Link>
        <span className="mx-2 text-body-secondary" aria-hidden="true">
          ·
        </span>
        <Link to={paths.login}>Sign Up</Link>
      </p>
    </PublicLayout>
  );
}
