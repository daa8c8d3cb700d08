import { useState, type ReactNode } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import Form from 'react-bootstrap/Form';
import { QueryState } from '../../components/QueryState';
import { SECURITY_MESSAGES } from '../../shared/security';
import { toast } from '../../components/toast';
import type { AuthenticationResponse, AuthType } from '../../api/generated/security.gen';
import { useGetAuthenticationQuery } from '../../api/security';
import { AuthenticatorSetup } from './components/AuthenticatorSetup';
import { ChangePinForm } from './components/ChangePinForm';
import { SecurityCodeModal, type SwitchTarget } from './components/SecurityCodeModal';
import './security.scss';
import { PageTitle } from '../../components/PageTitle';

interface MethodProps {
  method: SwitchTarget;
  title: string;
  active: boolean;
  onActivate: (method: SwitchTarget) => void;
  children: ReactNode;
}

function MethodItem({ method, title, active, onActivate, children }: MethodProps) {
  return (
    <Accordion.Item eventKey={method} className="security-method">
      <div className="security-method__head">
        <Accordion.Header as="h2" className="flex-grow-1">
          <span className="security-method__title">{title}</span>
          {active && <span className="security-ribbon">Active</span>}
        </Accordion.Header>
        <Form.Check
          type="switch"
          role="switch"
          id={`use-${method}`}
          className="security-method__switch"
          aria-label={`Use ${title}`}
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
  const authentication = useGetAuthenticationQuery();
  return (
    <QueryState query={authentication} what="your security settings">
      {(data) => <Methods data={data} />}
    </QueryState>
  );
}

/** The two methods once the settings are in; the switch asks for a code first. */
function Methods({ data }: { data: AuthenticationResponse }) {
  const [target, setTarget] = useState<SwitchTarget | null>(null);
  const current: AuthType = data.auth_type;
  const authenticatorReady = data.more_details.authenticator === 1;
  const activate = (method: SwitchTarget) => {
    if (method === 'authenticator' && !authenticatorReady) {
      toast.error(SECURITY_MESSAGES.setup2faFirst, { toastId: SECURITY_MESSAGES.setup2faFirst });
      return;
    }
    setTarget(method);
  };

  return (
    <section className="security-page">
      <PageTitle
        lead={
          <>
            Choose how you confirm your sign-in: your 4 digit pin or a code from an authenticator
            app.
            {current === 'otp' && ' You sign in with a one-time code sent to your e-mail for now.'}
          </>
        }
      >
        Authentication
      </PageTitle>
      <Accordion defaultActiveKey={current === 'authenticator' ? 'authenticator' : 'mpin'}>
        <MethodItem
          method="mpin"
          title="4 Digit Pin"
          active={current === 'mpin'}
          onActivate={activate}
        >
          <ChangePinForm />
        </MethodItem>
        <MethodItem
          method="authenticator"
          title="Google Authentication"
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
