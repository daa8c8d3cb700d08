import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { QRCodeSVG } from 'qrcode.react';
import { useChange2FaMutation } from '../../../api/security';
import { CopyButton } from '../../../components/CopyButton';
import { filters, useForm } from '../../../components/form/useForm';

interface Props {
  setUp: boolean;
  /** The authenticator is the active method. */
  active: boolean;
  /** The otpauth:// URL to scan; null once set up (or while loading). */
  otpauthUrl: string | null;
}

/** The key inside an otpauth URL, for people who type it instead of scanning. */
export function secretOf(otpauthUrl: string): string | null {
  try {
    return new URL(otpauthUrl).searchParams.get('secret');
  } catch {
    return null;
  }
}

const CODE_RULES = { filters: { code: filters.digits }, maxLength: { code: 6 } };

/** The authenticator panel: scan the QR, confirm with a code; 'Setup Done' afterwards. */
export function AuthenticatorSetup({ setUp, active, otpauthUrl }: Props) {
  const form = useForm({ code: '' }, CODE_RULES);
  const [change2fa, { isLoading }] = useChange2FaMutation();

  if (setUp) {
    return (
      <div className="setup-done" role="status">
        <span className="setup-done__mark" aria-hidden>
          ✓
        </span>
        <div>
          <p className="fw-semibold mb-1">Setup Done</p>
          <p className="text-secondary small mb-0">
            {active
              ? 'Your authenticator app is linked and confirms your sign-in.'
              : 'Your authenticator app is linked. Turn on its switch to sign in with its codes.'}
          </p>
        </div>
      </div>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.values.code) {
      form.setErrors({ code: 'Two Factor code is required' });
      return;
    }
    try {
      await change2fa({ change2FaRequest: form.values }).unwrap();
      form.reset();
    } catch (error) {
      form.applyServerErrors(error);
    }
  };

  const secret = otpauthUrl ? secretOf(otpauthUrl) : null;
  return (
    <div className="authenticator-setup">
      <div className="authenticator-setup__qr">
        {otpauthUrl ? (
          <QRCodeSVG
            value={otpauthUrl}
            level="L"
            size={128}
            role="img"
            aria-label="QR code for your authenticator app"
          />
        ) : (
          <Spinner aria-label="Loading the QR code" />
        )}
      </div>
      <div className="authenticator-setup__steps">
        <ol className="small text-secondary ps-3 mb-3">
          <li>Scan the QR code with Google Authenticator or any authenticator app.</li>
          <li>Enter the 6 digit code the app shows and press Confirm.</li>
        </ol>
        {secret && (
          <p className="small mb-3">
            <span className="text-secondary">Can&apos;t scan it? Enter this key: </span>
            <code className="setup-key">{secret}</code>{' '}
            <CopyButton value={secret} label="Copy key" className="py-0" />
          </p>
        )}
        <Form
          noValidate
          onSubmit={(event) => void submit(event)}
          aria-label="Set up Google Authentication"
        >
          <Form.Group className="mb-3" controlId="two-factor-code">
            <Form.Label>Two Factor Code</Form.Label>
            <Form.Control
              {...form.bind('code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder="6 digit code"
            />
            <Form.Control.Feedback type="invalid">{form.errors.code}</Form.Control.Feedback>
          </Form.Group>
          <Button type="submit" disabled={isLoading || !otpauthUrl}>
            {isLoading && <Spinner size="sm" className="me-2" aria-hidden />}
            Confirm
          </Button>
        </Form>
      </div>
    </div>
  );
}
