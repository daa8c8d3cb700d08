import { useGetCryptoDepositQuery } from '../../api/wallet';
import { QueryState } from '../../components/QueryState';
import { BalancePanel, SummaryCards } from './components/BalancePanel';
import { DepositCard } from './components/DepositCard';
import { DepositsTable } from './components/DepositsTable';
import './wallet.scss';
import { PageTitle } from '../../components/PageTitle';
import { useT } from '../../i18n/i18n';

/** /app/wallet: the USDT (BEP20) deposit wallet: balance, address, summary, recent deposits. */
export default function WalletPage() {
  const t = useT();
  const deposit = useGetCryptoDepositQuery();

  return (
    <div className="wallet">
      <PageTitle>{t('title.wallet')}</PageTitle>
      <QueryState query={deposit} what={t('wallet.what')}>
        {(data) => (
          <>
            <div className="row g-3 mb-3">
              <div className="col-12 col-lg-7">
                <BalancePanel balance={data.details.balance} />
              </div>
              <div className="col-12 col-lg-5">
                <DepositCard address={data.details.address} />
              </div>
            </div>
            <SummaryCards details={data.details} />
            <DepositsTable rows={data.data.data} />
          </>
        )}
      </QueryState>
    </div>
  );
}
