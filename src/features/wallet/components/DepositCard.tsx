import Card from 'react-bootstrap/Card';
import { QRCodeSVG } from 'qrcode.react';
import { CopyButton } from '../../../components/CopyButton';
import { CopyIcon } from '../../../components/icons';
import { shorten } from '../../../lib/mask';
import { InfoPopover } from './InfoPopover';
import { useT } from '../../../i18n/i18n';

export const NETWORK_LABEL = 'Binance smart chain';
export const COIN = 'USDT';

/** Where to send USDT: the QR and the shortened address with copy, network and coin. */
export function DepositCard({ address }: { address: string }) {
  const t = useT();
  /** The spec's disclaimer: money sent on another network is lost, so it is also shown unasked. */
  const bep20Only = t('wallet.bep20Only', { network: NETWORK_LABEL, coin: COIN });
  return (
    <Card className="wallet-card h-100">
      <Card.Body>
        <h2 className="wallet-card__title">{t('wallet.deposit', { coin: COIN })}</h2>
        <div className="wallet-qr">
          <QRCodeSVG value={address} size={128} level="L" title={t('wallet.qr', { address })} />
        </div>
        <div className="wallet-address">
          <span className="wallet-address__label">{t('wallet.address')}</span>
          <div className="wallet-address__row">
            <code className="wallet-address__value" title={address} data-testid="deposit-address">
              {shorten(address, 10, 10)}
            </code>
            <CopyButton
              value={address}
              successText={t('wallet.addressCopied')}
              label={t('wallet.copyAddress')}
              variant="light"
              className="wallet-address__copy"
            >
              <CopyIcon width={16} height={16} />
            </CopyButton>
          </div>
        </div>
        <dl className="wallet-facts">
          <div>
            <dt>{t('wallet.network')}</dt>
            <dd>
              {NETWORK_LABEL}
              <InfoPopover id="wallet-disclaimer" title={t('wallet.disclaimer')}>
                {bep20Only}
              </InfoPopover>
            </dd>
          </div>
          <div>
            <dt>{t('wallet.coin')}</dt>
            <dd>{COIN}</dd>
          </div>
        </dl>
        {/* Not role="alert": it is the screen's standing warning, not news to announce. */}
        <p className="alert alert-warning small mb-0 mt-3" data-testid="bep20-warning">
          {bep20Only}
        </p>
      </Card.Body>
    </Card>
  );
}
