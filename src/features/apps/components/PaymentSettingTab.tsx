import { useState } from 'react';
import Col from 'react-bootstrap/Col';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import {
  useGetAppDetailsQuery,
  useUsePaymentMethodMutation,
  type AppDetails,
  type PaymentMethod,
} from '../../../api/apps';
import { PaymentMethodCard } from './PaymentMethodCard';
import { PayoutAddressForm } from './PayoutAddressForm';
import { TitledModal } from '../../../components/TitledModal';
import { useT } from '../../../i18n/i18n';

/** How often the app is read again while a method's operational (gas) wallet is being created. */
export const GAS_POLL_MS = 3000;

/** One card per payment method the gateway offers; unused ones open 'Enter Payout Address'. */
export function PaymentSettingTab({ details }: { details: AppDetails }) {
  const t = useT();
  const appId = details.app_data.id;
  // The server creates a method's gas address a moment after the method is enabled: read the
  // app again until it is there, so Operational Wallet opens without a reload.
  const gasPending = details.user_payment_methods.some((used) => !used.gas_address);
  useGetAppDetailsQuery({ id: appId }, { pollingInterval: gasPending ? GAS_POLL_MS : 0 });
  const [enabling, setEnabling] = useState<PaymentMethod | null>(null);
  const [enableMethod, { isLoading }] = useUsePaymentMethodMutation();

  const submit = async (address: string) => {
    if (!enabling) return;
    await enableMethod({
      usePaymentMethodRequest: {
        payment_method_id: enabling.id,
        collect_address: address,
        user_app_id: appId,
      },
    }).unwrap();
    setEnabling(null);
  };

  return (
    <>
      <Row xs={1} md={2} xxl={3} className="g-3">
        {details.all_payment_methods.map((method) => (
          <Col key={method.id}>
            <PaymentMethodCard
              appId={appId}
              method={method}
              used={details.user_payment_methods.find((u) => u.payment_method_id === method.id)}
              onEnable={() => setEnabling(method)}
            />
          </Col>
        ))}
      </Row>
      <TitledModal
        show={enabling !== null}
        onHide={() => setEnabling(null)}
        title={t('method.enterPayout')}
      >
        <Modal.Body>
          {enabling && (
            <>
              <p className="text-muted small">
                {t('method.collectedTo', {
                  method: enabling.name,
                  network: enabling.network_name,
                })}
              </p>
              <PayoutAddressForm
                key={enabling.id}
                networkType={enabling.network_type}
                submitLabel={t('kyc.submit')}
                submitting={isLoading}
                onSubmit={submit}
                onCancel={() => setEnabling(null)}
              />
            </>
          )}
        </Modal.Body>
      </TitledModal>
    </>
  );
}
