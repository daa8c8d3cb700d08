import { NEW_DEPOSIT_FOUND } from '../../../shared/money';
import Card from 'react-bootstrap/Card';
import { toast } from '../../../components/toast';
import { useLazySyncBalanceQuery, type WalletDetails } from '../../../api/wallet';
import { useAppSelector } from '../../../app/hooks';
import { formatMoney } from '../../../lib/format';
import { selectCurrencySymbol } from '../../../app/session/sessionSlice';
import { COIN, NETWORK_LABEL } from './DepositCard';
import { InfoPopover } from './InfoPopover';
import { BusyButton } from '../../../components/BusyButton';

/**
 * The balance and 'Check Balance' (balance-sync): a new deposit is announced and the wallet
 * reloads through the cache tags (src/api/wallet.ts).
 */
export function BalancePanel({ balance }: { balance: number }) {
  const symbol = useAppSelector(selectCurrencySymbol);
  const [sync, { isFetching }] = useLazySyncBalanceQuery();

  const checkBalance = async () => {
    try {
      const result = await sync().unwrap();
      if (result.is_new) toast.success(NEW_DEPOSIT_FOUND);
      else toast.info(result.msg);
    } catch {
      // The API feedback middleware has toasted the failure.
    }
  };

  return (
    <Card className="wallet-card wallet-balance h-100">
      <Card.Body className="d-flex flex-column">
        <span className="wallet-balance__label">Wallet Balance</span>
        <p className="wallet-balance__amount" data-testid="wallet-balance">
          {formatMoney(balance, symbol)}
        </p>
        <div className="d-flex align-items-center gap-2 mb-4">
          <BusyButton onClick={() => void checkBalance()} busy={isFetching}>
            Check Balance
          </BusyButton>
          <InfoPopover id="wallet-check-note" title="Note">
            After depositing, click Check Balance: the deposit is credited to your wallet once the
            network has confirmed it.
          </InfoPopover>
        </div>
        <h2 className="wallet-steps__title">How to deposit</h2>
        <ol className="wallet-steps">
          <li>
            Send {COIN} on {NETWORK_LABEL} (BEP20) only, to your deposit address.
          </li>
          <li>Wait until the network confirms the transfer.</li>
          <li>Click Check Balance: the deposit is added to your balance.</li>
        </ol>
      </Card.Body>
    </Card>
  );
}

/** Deposit count, deposit total and what is still due to renew the active plan. */
export function SummaryCards({ details }: { details: WalletDetails }) {
  const symbol = useAppSelector(selectCurrencySymbol);
  const summary = [
    { label: 'Total Deposit Transactions', value: String(details.totalDepositCount) },
    {
      label: 'Total Deposit Amount',
      value: formatMoney(details.totalDepositAmount, symbol),
    },
    { label: 'Subscription Due', value: formatMoney(details.amountToPay, symbol) },
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
