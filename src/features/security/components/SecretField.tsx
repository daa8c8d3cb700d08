import { useState, type ChangeEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

interface Props {
  id: string;
  label: string;
  name: string;
  value: string;
  isInvalid: boolean;
  error?: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  autoComplete: string;
  placeholder?: string;
  /** Numeric keypad on phones (pins). */
  numeric?: boolean;
  /** Id of an element that explains the field (e.g. the password checklist). */
  describedBy?: string;
}

/** A password-type field with a show/hide toggle and its validation message. */
export function SecretField({
  id,
  label,
  error,
  numeric,
  isInvalid,
  describedBy,
  ...input
}: Props) {
  const [shown, setShown] = useState(false);
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <InputGroup hasValidation>
        <Form.Control
          {...input}
          type={shown ? 'text' : 'password'}
          inputMode={numeric ? 'numeric' : undefined}
          isInvalid={isInvalid}
          aria-describedby={describedBy}
        />
        <Button
          variant="outline-secondary"
          className="secret-toggle"
          aria-label={`${shown ? 'Hide' : 'Show'} ${label}`}
          aria-pressed={shown}
          onClick={() => setShown((value) => !value)}
        >
          {shown ? 'Hide' : 'Show'}
        </Button>
        <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>
      </InputGroup>
    </Form.Group>
  );
}
