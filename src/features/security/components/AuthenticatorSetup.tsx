import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { QRCodeSVG } from 'qrcode.react';
import { useChange2FaMutation } from '../../../api/security';
import { CopyButton } from '../../../components/CopyButton';
import { filters, useForm } from '../../../components/form/useForm';
import { useT } from '../../../i18n/i18n';

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
  const t = useT();
  const form = useForm({ code: '' }, CODE_RULES);
  const [change2fa, { isLoading }] = useChange2FaMutation();

  if (setUp) {
    return (
      <div className="setup-done" role="status">
        <span className="setup-done__mark" aria-hidden>
          ✓
        </span>
        <div>
          <p className="fw-semibold mb-1">{t('security.setupDone')}</p>
          <p className="text-secondary small mb-0">
            {active ? t('security.linkedActive') : t('security.linked')}
          </p>
        </div>
      </div>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.values.code) {
      form.setErrors({ code: t('security.code2faRequired') });
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
            aria-label={t('security.qr')}
          />
        ) : (
          <Spinner aria-label={t('security.qrLoading')} />
        )}
      </div>
      <div className="authenticator-setup__steps">
        <ol className="small text-secondary ps-3 mb-3">
          <li>{t('security.step1')}</li>
          <li>{t('security.step2')}</li>
        </ol>
        {secret && (
          <p className="small mb-3">
            <span className="text-secondary">{t('security.cantScan')} </span>
            <code className="setup-key">{secret}</code>{' '}
            <CopyButton value={secret} label={t('security.copyKey')} className="py-0" />
          </p>
        )}
        <Form
          noValidate
          onSubmit={(event) => void submit(event)}
          aria-label={t('security.setupForm')}
        >
          <Form.Group className="mb-3" controlId="two-factor-code">
            <Form.Label>{t('security.code2fa')}</Form.Label>
            <Form.Control
              {...form.bind('code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder={t('security.codePlaceholder')}
            />
            <Form.Control.Feedback type="invalid">{form.errors.code}</Form.Control.Feedback>
          </Form.Group>
          <Button type="submit" disabled={isLoading || !otpauthUrl}>
            {isLoading && <Spinner size="sm" className="me-2" aria-hidden />}
            {t('security.confirm')}
          </Button>
        </Form>
      </div>
    </div>
  );
}
