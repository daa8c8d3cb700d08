import { SECURITY_MESSAGES } from '../../../shared/security';
import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { AuthType, UpdateAuthenticationRequest } from '../../../api/generated/security.gen';
import { useResendOtpMutation, useUpdateAuthenticationMutation } from '../../../api/security';
import { isApiError } from '../../../api/errors';
import { filters, useForm } from '../../../components/form/useForm';
import { BusyButton } from '../../../components/BusyButton';

export type SwitchTarget = UpdateAuthenticationRequest['type'];

interface Props {
  /** The method to switch to; the modal is shown while it is set. */
  target: SwitchTarget | null;
  /** The method active now: its code authorises the switch. */
  current: AuthType;
  onClose: () => void;
}

/** Which request field carries the code of the active method, and how it is entered. */
const METHOD = {
  mpin: { field: 'spassword', length: 4, hint: 'Enter your 4 digit pin' },
  authenticator: {
    field: 'code',
    length: 6,
    hint: 'Enter the 6 digit code from your authenticator app',
  },
  otp: { field: 'otp', length: 4, hint: 'Press Send OTP and enter the code we e-mail you' },
} as const;

function switchRequest(
  type: SwitchTarget,
  current: AuthType,
  code: string,
): UpdateAuthenticationRequest {
  switch (current) {
    case 'mpin':
      return { type, spassword: code };
    case 'authenticator':
      return { type, code };
    case 'otp':
      return { type, otp: code };
  }
}

const CODE_FILTER = { filters: { code: filters.digits } };

/** 'Enter the Security Code': authorises a switch of the active method. */
export function SecurityCodeModal({ target, current, onClose }: Props) {
  const method = METHOD[current];
  const form = useForm({ code: '' }, { ...CODE_FILTER, maxLength: { code: method.length } });
  const [updateAuthentication, { isLoading }] = useUpdateAuthenticationMutation();
  const [resendOtp, { isLoading: isSending }] = useResendOtpMutation();

  const close = () => {
    form.reset();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!target) return;
    if (!form.values.code) {
      form.setErrors({ code: SECURITY_MESSAGES.codeRequired });
      return;
    }
    try {
      await updateAuthentication({
        updateAuthenticationRequest: switchRequest(target, current, form.values.code),
      }).unwrap();
      close();
    } catch (error) {
      // The server names the code field after the method (spassword, code, otp).
      if (isApiError(error)) {
        form.applyServerErrors({ fieldErrors: { code: error.fieldErrors[method.field] ?? [] } });
      }
    }
  };

  return (
    <Modal show={target !== null} onHide={close} centered aria-labelledby="security-code-title">
      <Form noValidate onSubmit={(event) => void submit(event)}>
        <Modal.Header>
          <Modal.Title id="security-code-title" as="h2" className="h5">
            Enter the Security Code
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group controlId="security-code">
            <Form.Label>Security Code</Form.Label>
            <Form.Control
              {...form.bind('code')}
              type="password"
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder={method.hint}
              autoFocus
            />
            <Form.Control.Feedback type="invalid">{form.errors.code}</Form.Control.Feedback>
          </Form.Group>
          {current === 'otp' && (
            <BusyButton
              variant="link"
              className="px-0 mt-2"
              busy={isSending}
              onClick={() => void resendOtp()}
            >
              Send OTP
            </BusyButton>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={close}>
            Close
          </Button>
          <BusyButton type="submit" busy={isLoading}>
            Confirm
          </BusyButton>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
