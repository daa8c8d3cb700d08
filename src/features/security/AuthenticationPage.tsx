import { useState, type ReactNode } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import Form from 'react-bootstrap/Form';
import { QueryState } from '../../components/QueryState';
import { toast } from '../../components/toast';
import type { AuthenticationResponse, AuthType } from '../../api/generated/security.gen';
import { useGetAuthenticationQuery } from '../../api/security';
import { AuthenticatorSetup } from './components/AuthenticatorSetup';
import { ChangePinForm } from './components/ChangePinForm';
import { SecurityCodeModal, type SwitchTarget } from './components/SecurityCodeModal';
import './security.scss';
import { PageTitle } from '../../components/PageTitle';
import { t as translate, useT } from '../../i18n/i18n';

interface MethodProps {
  method: SwitchTarget;
  title: string;
  active: boolean;
  onActivate: (method: SwitchTarget) => void;
  children: ReactNode;
}

function MethodItem({ method, title, active, onActivate, children }: MethodProps) {
  const t = useT();
  return (
    <Accordion.Item eventKey={method} className="security-method">
      <div className="security-method__head">
        <Accordion.Header as="h2" className="flex-grow-1">
          <span className="security-method__title">{title}</span>
          {active && <span className="security-ribbon">{t('security.active')}</span>}
        </Accordion.Header>
        <Form.Check
          type="switch"
          role="switch"
          id={`use-${method}`}
          className="security-method__switch"
          aria-label={t('security.use', { method: title })}
          checked={active}
          // The active method is changed by switching the other one on.
          disabled={active}
          onChange={(event) => {
            if (event.target.checked) onActivate(method);
          }}
        />
      </div>
      <Accordion.Body>{children}</Accordion.Body>
    </Accordion.Item>
  );
}

/** /app/authentication: the active second factor, the pin and the authenticator setup. */
export default function AuthenticationPage() {
  const t = useT();
  const authentication = useGetAuthenticationQuery();
  return (
    <QueryState query={authentication} what={t('security.what')}>
      {(data) => <Methods data={data} />}
    </QueryState>
  );
}

/** The two methods once the settings are in; the switch asks for a code first. */
function Methods({ data }: { data: AuthenticationResponse }) {
  const t = useT();
  const [target, setTarget] = useState<SwitchTarget | null>(null);
  const current: AuthType = data.auth_type;
  const authenticatorReady = data.more_details.authenticator === 1;
  const activate = (method: SwitchTarget) => {
    if (method === 'authenticator' && !authenticatorReady) {
      // SECURITY_MESSAGES.setup2faFirst (shared/security), in the language in use.
      const message = translate('security.setup2faFirst');
      toast.error(message, { toastId: message });
      return;
    }
    setTarget(method);
  };

  return (
    <section className="security-page">
      <PageTitle
        lead={
          <>
            {t('security.lead')}
            {current === 'otp' && ` ${t('security.leadOtp')}`}
          </>
        }
      >
        {t('title.authentication')}
      </PageTitle>
      <Accordion defaultActiveKey={current === 'authenticator' ? 'authenticator' : 'mpin'}>
        <MethodItem
          method="mpin"
          title={t('login.mpin.label')}
          active={current === 'mpin'}
          onActivate={activate}
        >
          <ChangePinForm />
        </MethodItem>
        <MethodItem
          method="authenticator"
          title={t('security.google')}
          active={current === 'authenticator'}
          onActivate={activate}
        >
          <AuthenticatorSetup
            setUp={authenticatorReady}
            active={current === 'authenticator'}
            otpauthUrl={data.image_2fa}
          />
        </MethodItem>
      </Accordion>
      <SecurityCodeModal target={target} current={current} onClose={() => setTarget(null)} />
    </section>
  );
}
