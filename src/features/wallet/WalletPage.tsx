import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useGetCryptoDepositQuery } from '../../api/wallet';
import { BalancePanel, SummaryCards } from './components/BalancePanel';
import { DepositCard } from './components/DepositCard';
import { DepositsTable } from './components/DepositsTable';
import './wallet.scss';

/** /app/wallet: the USDT (BEP20) deposit wallet (spec 001, Wallet). */
export default function WalletPage() {
  const { data, isLoading, isError, refetch } = useGetCryptoDepositQuery();

  return (
    <div className="wallet">
      <h1 className="wallet__heading">Wallet</h1>
      {isLoading ? (
        <div className="text-center py-5">
          <Spinner role="status" aria-label="Loading the wallet" />
        </div>
      ) : data ? (
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
      ) : isError ? (
        <div className="text-center py-5">
          <p className="text-muted">The wallet could not be loaded.</p>
          <Button variant="outline-primary" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      ) : null}
    </div>
  );
}
