import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { CopyButton } from '../../../components/CopyButton';
import { MSG } from '../appRules';

/** The new key, shown once: it is not stored in plaintext anywhere and cannot be shown again. */
export function NewKeyPanel({ token, onBack }: { token: string; onBack: () => void }) {
  return (
    <div>
      <Alert variant="warning" className="small">
        Copy this key now. For your security it is shown only once and cannot be retrieved later.
      </Alert>
      <Form.Group controlId="new-api-key">
        <Form.Label>Your API Key</Form.Label>
        <InputGroup>
          <Form.Control
            value={token}
            readOnly
            className="font-monospace"
            onFocus={(e) => e.target.select()}
          />
          <CopyButton
            value={token}
            successText={MSG.keyCopied}
            label="Copy key"
            variant="outline-primary"
            size={undefined}
          />
        </InputGroup>
      </Form.Group>
      <Button variant="secondary" className="mt-3" onClick={onBack}>
        Go Back
      </Button>
    </div>
  );
}
