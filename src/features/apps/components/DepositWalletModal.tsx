import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import {
  useUpdatePaymentMethodMutation,
  type PaymentMethod,
  type UserPaymentMethod,
} from '../../../api/apps';
import { CopyButton } from '../../../components/CopyButton';
import { DateTime } from '../../../components/DateTime';
import { shorten } from '../../../lib/mask';
import { MSG } from '../appRules';
import { PayoutAddressForm } from './PayoutAddressForm';
import { TitledModal } from '../../../components/TitledModal';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

interface Props {
  show: boolean;
  onHide: () => void;
  appId: string;
  method: PaymentMethod;
  used: UserPaymentMethod;
}

/** The payout (collect) address of a method in use, shortened, with an edit control. */
export function DepositWalletModal({ show, onHide, appId, method, used }: Props) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  const [update, { isLoading }] = useUpdatePaymentMethodMutation();

  const close = () => {
    setEditing(false);
    onHide();
  };

  const save = async (address: string) => {
    await update({
      updatePaymentMethodRequest: {
        id: used.id,
        user_app_id: appId,
        type: 'address',
        collect_address: address,
      },
    }).unwrap();
    setEditing(false);
  };

  return (
    <TitledModal show={show} onHide={close} title={t('method.depositWallet')}>
      <Modal.Body>
        <p className="small text-muted mb-2">
          {t('depositWallet.payoutFor', { method: method.name, network: method.network_name })}
        </p>
        {editing ? (
          <PayoutAddressForm
            networkType={method.network_type}
            initial={used.collect_address}
            submitLabel={t('depositWallet.save')}
            submitting={isLoading}
            onSubmit={save}
            onCancel={() => setEditing(false)}
          />
        ) : (
          <div className="d-flex flex-wrap align-items-center gap-2">
            <code className="fs-6" title={used.collect_address}>
              {shorten(used.collect_address, 10, 10)}
            </code>
            <CopyButton
              value={used.collect_address}
              successText={MSG.addressCopied}
              label={t('wallet.copyAddress')}
            />
            <Button
              size="sm"
              variant="outline-primary"
              onClick={() => setEditing(true)}
              aria-label={t('depositWallet.editOf')}
            >
              {t('depositWallet.edit')}
            </Button>
          </div>
        )}
        {used.payout_hold_until && (
          <p className="small text-warning-emphasis mt-2 mb-0">
            {withNodes(
              t,
              'depositWallet.held',
              {},
              { when: <DateTime value={used.payout_hold_until} /> },
            )}
          </p>
        )}
      </Modal.Body>
    </TitledModal>
  );
}
