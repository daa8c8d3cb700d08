import Col from 'react-bootstrap/Col';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { QRCodeSVG } from 'qrcode.react';
import { useFetchBalanceQuery, type PaymentMethod } from '../../../api/apps';
import { CopyButton } from '../../../components/CopyButton';
import { chainInfo, explorerAddressUrl } from '../../../lib/chains';
import { formatCoinTotal } from '../../../lib/format';
import { shorten } from '../../../lib/mask';
import { MSG } from '../appRules';
import { TitledModal } from '../../../components/TitledModal';
import { BusyButton } from '../../../components/BusyButton';
import { FundTestWalletButton } from './FundTestWalletButton';
import { useT } from '../../../i18n/i18n';

interface Props {
  show: boolean;
  onHide: () => void;
  appId: string;
  method: PaymentMethod;
  gasAddress: string;
}

/** The gas wallet that pays a method's network fees: QR, balances, explorer links, copy. */
export function OperationalWalletModal({ show, onHide, appId, method, gasAddress }: Props) {
  const t = useT();
  const chain = chainInfo(method.chain_id);
  const balance = useFetchBalanceQuery(
    { paymentMethodId: method.id, gasAddress, appDataId: appId },
    { skip: !show },
  );
  const explorer = explorerAddressUrl(method.chain_id, gasAddress, { pageSize: 100, txType: 2 });
  const showValue = (value: number | null | undefined) =>
    balance.isFetching ? '…' : balance.data ? formatCoinTotal(value) : '----';

  return (
    <TitledModal show={show} onHide={onHide} title={t('method.operationalWallet')}>
      <Modal.Body>
        <p className="small text-muted">
          {t('opWallet.pays', {
            method: method.name,
            network: method.network_name,
            coin: chain?.nativeCoin ?? t('opWallet.nativeCoin'),
          })}
        </p>
        <div className="text-center mb-3">
          <QRCodeSVG
            value={gasAddress}
            size={128}
            level="L"
            title={t('wallet.qr', { address: gasAddress })}
          />
        </div>
        <div className="d-flex flex-wrap align-items-center justify-content-center gap-2 mb-3">
          <code className="fs-6" title={gasAddress}>
            {shorten(gasAddress, 10, 10)}
          </code>
          <CopyButton
            value={gasAddress}
            successText={MSG.addressCopied}
            label={t('wallet.copyAddress')}
          />
        </div>
        <Row className="g-2 text-center">
          <Col>
            <div className="border rounded p-2 h-100">
              <div className="small text-muted">
                {chain
                  ? t('opWallet.balance', { coin: chain.nativeCoin })
                  : t('opWallet.nativeBalance')}
              </div>
              <div className="fw-semibold" data-testid="native-balance">
                {showValue(balance.data?.nativeAmount)}
              </div>
            </div>
          </Col>
          {method.is_token === 1 && (
            <Col>
              <div className="border rounded p-2 h-100">
                <div className="small text-muted">
                  {t('opWallet.balance', { coin: method.name })}
                </div>
                <div className="fw-semibold" data-testid="token-balance">
                  {showValue(balance.data?.tokenAmount)}
                </div>
              </div>
            </Col>
          )}
        </Row>
      </Modal.Body>
      <Modal.Footer className="justify-content-between">
        <BusyButton
          variant="outline-secondary"
          size="sm"
          onClick={() => void balance.refetch()}
          busy={balance.isFetching}
        >
          {t('opWallet.refresh')}
        </BusyButton>
        <FundTestWalletButton
          appId={appId}
          method={method}
          onFunded={() => void balance.refetch()}
        />
        {explorer && (
          <a
            href={explorer}
            target="_blank"
            rel="noopener noreferrer"
            className="btn btn-link btn-sm"
          >
            {t('opWallet.explorer')}
          </a>
        )}
      </Modal.Footer>
    </TitledModal>
  );
}
