import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';

// Placeholder until the access slice lands.
export default function LoginPage() {
  return (
    <main className="container py-5" style={{ maxWidth: 420 }}>
      <h1 className="h3 mb-4">Sign In</h1>
      <Form>
        <Form.Group className="mb-3" controlId="login-username">
          <Form.Label>Username or Email</Form.Label>
          <Form.Control />
        </Form.Group>
        <Button type="submit">Sign In</Button>
      </Form>
    </main>
  );
}
