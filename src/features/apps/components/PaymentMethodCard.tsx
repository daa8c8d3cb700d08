import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { toast } from '../../../components/toast';
import {
  useUpdatePaymentMethodMutation,
  type PaymentMethod,
  type UserPaymentMethod,
} from '../../../api/apps';
import { apiBase } from '../../../api/baseQuery';
import { DateTime } from '../../../components/DateTime';
import { MSG } from '../appRules';
import { DepositWalletModal } from './DepositWalletModal';
import { OperationalWalletModal } from './OperationalWalletModal';
import { useT, type MessageKey } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

interface Props {
  appId: string;
  method: PaymentMethod;
  used: UserPaymentMethod | undefined;
  onEnable: () => void;
}

type Switch = 'deposit_status' | 'withdraw_status';

/** The method's two switches: taking deposits, sending withdrawals. */
const SWITCHES: { type: Switch; id: string; label: MessageKey }[] = [
  { type: 'deposit_status', id: 'deposit', label: 'method.forDeposit' },
  { type: 'withdraw_status', id: 'withdraw', label: 'method.forWithdraw' },
];

export function PaymentMethodCard({ appId, method, used, onEnable }: Props) {
  const t = useT();
  const [wallet, setWallet] = useState<'deposit' | 'operational' | null>(null);
  const [update, { isLoading }] = useUpdatePaymentMethodMutation();
  const label = `${method.name} (${method.network_name})`;

  const toggle = (type: Switch, on: boolean) => {
    if (!used) return;
    // Failures are toasted by the API layer; the switch re-renders from the refetched detail.
    void update({
      updatePaymentMethodRequest: { id: used.id, user_app_id: appId, type, status: on ? 1 : 0 },
    });
  };

  const openOperational = () => {
    if (!used?.gas_address) toast.error(MSG.gasNotReady, { toastId: MSG.gasNotReady });
    else setWallet('operational');
  };

  return (
    <Card className="h-100 payment-method">
      <Card.Body className="d-flex flex-column">
        <div className="d-flex align-items-center gap-3 mb-3">
          <img
            src={`${apiBase()}/images/${encodeURIComponent(method.logo)}`}
            alt={t('logo.alt', { name: method.name })}
            width={40}
            height={40}
            className="payment-method__logo"
          />
          <div className="min-w-0">
            <h3 className="h6 mb-0">{method.name}</h3>
            <div className="small text-muted">{method.network_name}</div>
          </div>
        </div>
        {used ? (
          <>
            {SWITCHES.map(({ type, id, label: switchLabel }) => (
              <Form.Check
                key={type}
                type="switch"
                role="switch"
                id={`${id}-${method.id}`}
                label={t(switchLabel)}
                checked={used[type] === 1}
                disabled={isLoading}
                onChange={(event) => toggle(type, event.target.checked)}
                aria-describedby={`method-${method.id}`}
              />
            ))}
            <span id={`method-${method.id}`} className="visually-hidden">
              {label}
            </span>
            {used.payout_hold_until && (
              // In view without opening Deposit Wallet, which says what the hold stops.
              <p className="small text-warning-emphasis mt-2 mb-0">
                {withNodes(
                  t,
                  'method.held',
                  {},
                  { when: <DateTime value={used.payout_hold_until} /> },
                )}
              </p>
            )}
            <div className="d-flex flex-wrap gap-2 mt-auto pt-3">
              <Button size="sm" variant="outline-primary" onClick={() => setWallet('deposit')}>
                {t('method.depositWallet')}
              </Button>
              <Button size="sm" variant="outline-primary" onClick={openOperational}>
                {t('method.operationalWallet')}
              </Button>
            </div>
            <DepositWalletModal
              show={wallet === 'deposit'}
              onHide={() => setWallet(null)}
              appId={appId}
              method={method}
              used={used}
            />
            {used.gas_address && (
              <OperationalWalletModal
                show={wallet === 'operational'}
                onHide={() => setWallet(null)}
                appId={appId}
                method={method}
                gasAddress={used.gas_address}
              />
            )}
          </>
        ) : (
          <Form.Check
            type="switch"
            role="switch"
            id={`use-${method.id}`}
            label={<span className="text-muted">{t('method.notInUse')}</span>}
            aria-label={t('method.use', { method: label })}
            checked={false}
            onChange={onEnable}
          />
        )}
      </Card.Body>
    </Card>
  );
}
