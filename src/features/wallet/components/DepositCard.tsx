import Card from 'react-bootstrap/Card';
import { QRCodeSVG } from 'qrcode.react';
import { CopyButton } from '../../../components/CopyButton';
import { CopyIcon } from '../../../components/icons';
import { shorten } from '../../../lib/mask';
import { InfoPopover } from './InfoPopover';

export const ADDRESS_COPIED = 'Address Copied SuccessFully';
export const NETWORK_LABEL = 'Binance smart chain';
export const COIN = 'USDT';

/** The spec's disclaimer: money sent on another network is lost, so it is also shown unasked. */
const BEP20_ONLY = `Only BEP20 (${NETWORK_LABEL}) ${COIN} deposits are accepted. Deposits sent on other networks such as ERC20 or TRC20 are neither credited nor refunded.`;

/** Where to send USDT: the QR and the shortened address with copy, network and coin. */
export function DepositCard({ address }: { address: string }) {
  return (
    <Card className="wallet-card h-100">
      <Card.Body>
        <h2 className="wallet-card__title">Deposit {COIN}</h2>
        <div className="wallet-qr">
          <QRCodeSVG value={address} size={128} level="L" title={`QR code of ${address}`} />
        </div>
        <div className="wallet-address">
          <span className="wallet-address__label">Deposit address</span>
          <div className="wallet-address__row">
            <code className="wallet-address__value" title={address} data-testid="deposit-address">
              {shorten(address, 10, 10)}
            </code>
            <CopyButton
              value={address}
              successText={ADDRESS_COPIED}
              label="Copy address"
              variant="light"
              className="wallet-address__copy"
            >
              <CopyIcon width={16} height={16} />
            </CopyButton>
          </div>
        </div>
        <dl className="wallet-facts">
          <div>
            <dt>Network</dt>
            <dd>
              {NETWORK_LABEL}
              <InfoPopover id="wallet-disclaimer" title="Disclaimer">
                {BEP20_ONLY}
              </InfoPopover>
            </dd>
          </div>
          <div>
            <dt>Coin</dt>
            <dd>{COIN}</dd>
          </div>
        </dl>
        {/* Not role="alert": it is the screen's standing warning, not news to announce. */}
        <p className="alert alert-warning small mb-0 mt-3" data-testid="bep20-warning">
          {BEP20_ONLY}
        </p>
      </Card.Body>
    </Card>
  );
}
