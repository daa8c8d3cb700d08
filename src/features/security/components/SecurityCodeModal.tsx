import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { AuthType, UpdateAuthenticationRequest } from '../../../api/generated/security.gen';
import { useResendOtpMutation, useUpdateAuthenticationMutation } from '../../../api/security';
import { isApiError } from '../../../api/errors';
import { filters, useForm } from '../../../components/form/useForm';
import { BusyButton } from '../../../components/BusyButton';
import { t as translate, useT } from '../../../i18n/i18n';

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
  mpin: { field: 'spassword', length: 4, hint: 'security.hintMpin' },
  authenticator: { field: 'code', length: 6, hint: 'security.hintAuthenticator' },
  otp: { field: 'otp', length: 4, hint: 'security.hintOtp' },
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
  const t = useT();
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
      // SECURITY_MESSAGES.codeRequired (shared/security), in the language in use.
      form.setErrors({ code: translate('security.codeRequired') });
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
            {t('security.modalTitle')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <Form.Group controlId="security-code">
            <Form.Label>{t('security.code')}</Form.Label>
            <Form.Control
              {...form.bind('code')}
              type="password"
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder={t(method.hint)}
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
              {t('security.sendOtp')}
            </BusyButton>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={close}>
            {t('common.close')}
          </Button>
          <BusyButton type="submit" busy={isLoading}>
            {t('security.confirm')}
          </BusyButton>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
