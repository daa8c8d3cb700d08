import Card from 'react-bootstrap/Card';
import { toast } from '../../../components/toast';
import { useLazySyncBalanceQuery, type WalletDetails } from '../../../api/wallet';
import { useAppSelector } from '../../../app/hooks';
import { formatMoney } from '../../../lib/format';
import { selectCurrencySymbol } from '../../../app/session/sessionSlice';
import { COIN, NETWORK_LABEL } from './DepositCard';
import { InfoPopover } from './InfoPopover';
import { BusyButton } from '../../../components/BusyButton';
import { t as translate, useT } from '../../../i18n/i18n';

/**
 * The balance and 'Check Balance' (balance-sync): a new deposit is announced and the wallet
 * reloads through the cache tags (src/api/wallet.ts).
 */
export function BalancePanel({ balance }: { balance: number }) {
  const t = useT();
  const symbol = useAppSelector(selectCurrencySymbol);
  const [sync, { isFetching }] = useLazySyncBalanceQuery();

  const checkBalance = async () => {
    try {
      const result = await sync().unwrap();
      // NEW_DEPOSIT_FOUND (shared/money) in the language in use.
      if (result.is_new) toast.success(translate('wallet.newDeposit'));
      else toast.info(result.msg);
    } catch {
      // The API feedback middleware has toasted the failure.
    }
  };

  return (
    <Card className="wallet-card wallet-balance h-100">
      <Card.Body className="d-flex flex-column">
        <span className="wallet-balance__label">{t('wallet.balance')}</span>
        <p className="wallet-balance__amount" data-testid="wallet-balance">
          {formatMoney(balance, symbol)}
        </p>
        <div className="d-flex align-items-center gap-2 mb-4">
          <BusyButton onClick={() => void checkBalance()} busy={isFetching}>
            {t('wallet.check')}
          </BusyButton>
          <InfoPopover id="wallet-check-note" title={t('wallet.note')}>
            {t('wallet.noteText')}
          </InfoPopover>
        </div>
        <h2 className="wallet-steps__title">{t('wallet.how')}</h2>
        <ol className="wallet-steps">
          <li>{t('wallet.step1', { coin: COIN, network: NETWORK_LABEL })}</li>
          <li>{t('wallet.step2')}</li>
          <li>{t('wallet.step3')}</li>
        </ol>
      </Card.Body>
    </Card>
  );
}

/** Deposit count, deposit total and what is still due to renew the active plan. */
export function SummaryCards({ details }: { details: WalletDetails }) {
  const t = useT();
  const symbol = useAppSelector(selectCurrencySymbol);
  const summary = [
    { label: t('wallet.totalCount'), value: String(details.totalDepositCount) },
    {
      label: t('wallet.totalAmount'),
      value: formatMoney(details.totalDepositAmount, symbol),
    },
    { label: t('wallet.due'), value: formatMoney(details.amountToPay, symbol) },
  ];
  return (
    <div className="row g-3 mb-3">
      {summary.map((item) => (
        <div className="col-12 col-sm-4" key={item.label}>
          <Card className="wallet-card wallet-summary h-100">
            <Card.Body>
              <span className="wallet-summary__label">{item.label}</span>
              <span className="wallet-summary__value">{item.value}</span>
            </Card.Body>
          </Card>
        </div>
      ))}
    </div>
  );
}
