import {
  useFundTestWalletMutation,
  useGetAppDetailsQuery,
  type PaymentMethod,
} from '../../../api/apps';
import { BusyButton } from '../../../components/BusyButton';
import { useT } from '../../../i18n/i18n';

/**
 * Test mode's faucet in the Operational Wallet modal: tops the wallet up with test tokens and the
 * network's coin on the test network, so test withdrawals and refunds can go out. Shown for a
 * test app only (the server refuses a live one).
 */
export function FundTestWalletButton({
  appId,
  method,
  onFunded,
}: {
  appId: string;
  method: PaymentMethod;
  onFunded: () => void;
}) {
  const t = useT();
  const { data } = useGetAppDetailsQuery({ id: appId });
  const [fund, { isLoading }] = useFundTestWalletMutation();
  if (data?.data.app_data.livemode !== false) return null;

  const click = async () => {
    const funded = await fund({
      id: appId,
      fundTestWalletRequest: { payment_method_id: method.id },
    })
      .unwrap()
      .then(
        () => true,
        () => false,
      );
    if (funded) onFunded();
  };

  return (
    <BusyButton variant="warning" size="sm" busy={isLoading} onClick={() => void click()}>
      {t('testMode.fundWallet')}
    </BusyButton>
  );
}
