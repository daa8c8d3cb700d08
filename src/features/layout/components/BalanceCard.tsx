import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useGetBalanceQuery } from '../../../api/wallet';
import { useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { EyeIcon, EyeOffIcon, WalletIcon } from '../../../components/icons';
import { formatMoney } from '../../../lib/format';
import { MASKED_BALANCE } from '../../../lib/mask';
import { selectCurrencySymbol } from '../../../app/session/sessionSlice';
import { useT } from '../../../i18n/i18n';

/** The sidebar's wallet balance: 2 decimals with the currency prefix, shown until masked. */
export function BalanceCard({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  const [shown, setShown] = useState(true);
  const symbol = useAppSelector(selectCurrencySymbol);
  const { data, isLoading } = useGetBalanceQuery();
  const amount = data ? formatMoney(data.data.payInBalance, symbol) : isLoading ? '…' : '----';

  return (
    <section className="balance-card" aria-label={t('balance.region')}>
      <div className="balance-card__top">
        <span className="balance-card__label">
          <WalletIcon width={16} height={16} className="me-1" />
          {t('balance.label')}
        </span>
        <button
          type="button"
          className="balance-card__eye"
          onClick={() => setShown((s) => !s)}
          aria-label={t(shown ? 'balance.hide' : 'balance.show')}
          aria-pressed={!shown}
        >
          {shown ? <EyeIcon width={18} height={18} /> : <EyeOffIcon width={18} height={18} />}
        </button>
      </div>
      <p className="balance-card__amount" data-testid="balance-amount">
        {shown ? amount : MASKED_BALANCE}
      </p>
      <Link to={paths.wallet} className="balance-card__link" onClick={onNavigate}>
        {t('balance.wallet')}
      </Link>
    </section>
  );
}
