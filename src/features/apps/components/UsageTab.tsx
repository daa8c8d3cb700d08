import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useGetAppDetailsQuery, type AppDetails, type PaymentMethod } from '../../../api/apps';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';
import { formatCoinTotal } from '../../../lib/format';
import { LIVE } from './usePagedList';
import { useT, type Translate } from '../../../i18n/i18n';

function Figure({ label, value, note }: { label: string; value: string | number; note?: string }) {
  return (
    <Card className="h-100 usage-card">
      <Card.Body>
        <div className="small text-muted">{label}</div>
        <div className="fs-4 fw-semibold text-break">{value}</div>
        {note && <div className="small text-muted">{note}</div>}
      </Card.Body>
    </Card>
  );
}

/**
 * One card per payment method: the totals received and sent, how the received total splits at
 * the sweep between the gateway's fee and the payout address, and how much of the sent total
 * paid refunds (6 decimals). In two columns: what came in on the left, what went out on the right.
 */
function MethodCards({ methods }: { methods: PaymentMethod[] }) {
  const t = useT();
  if (methods.length === 0) return null;
  return (
    <Row xs={1} md={2} xxl={3} className="g-3">
      {methods.map((method) => (
        <Col key={method.id}>
          <Card className="h-100">
            <Card.Body>
              <h3 className="h6 mb-3">
                {method.name} <span className="text-muted fw-normal">({method.network_name})</span>
              </h3>
              <dl className="mb-0 usage-totals">
                <div>
                  <dt className="small fw-normal text-muted">{t('usage.totalReceived')}</dt>
                  <dd className="mb-0 fw-semibold">{formatCoinTotal(method.total_amount)}</dd>
                </div>
                <div>
                  <dt className="small fw-normal text-muted">{t('usage.totalSent')}</dt>
                  <dd className="mb-0 fw-semibold">
                    {formatCoinTotal(method.total_withdraw_amount)}
                  </dd>
                </div>
                <div>
                  <dt className="small fw-normal text-muted">{t('logs.gatewayFee')}</dt>
                  <dd className="mb-0 fw-semibold">{formatCoinTotal(method.total_gateway_fee)}</dd>
                </div>
                <div>
                  <dt className="small fw-normal text-muted">{t('usage.refunds')}</dt>
                  <dd className="mb-0 fw-semibold">
                    {formatCoinTotal(method.total_refund_amount)}
                  </dd>
                </div>
                <div>
                  <dt className="small fw-normal text-muted">{t('logs.toPayout')}</dt>
                  <dd className="mb-0 fw-semibold">
                    {formatCoinTotal(method.total_payout_amount)}
                  </dd>
                </div>
              </dl>
            </Card.Body>
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/**
 * A method is in use when the app has it enabled or money has moved through it (a method turned
 * off later keeps its history in view).
 */
function splitByUse(details: AppDetails): {
  used: PaymentMethod[];
  others: PaymentMethod[];
} {
  const enabled = new Set(details.user_payment_methods.map((use) => use.payment_method_id));
  const inUse = (method: PaymentMethod) =>
    enabled.has(method.id) || method.total_amount !== 0 || method.total_withdraw_amount !== 0;
  return {
    used: details.all_payment_methods.filter(inUse),
    others: details.all_payment_methods.filter((method) => !inUse(method)),
  };
}

/** The refunds among the sent transactions, when there are any. */
function refundNote(t: Translate, refunds: number): string | undefined {
  return refunds === 0 ? undefined : t('usage.refundNote', { count: refunds });
}

/**
 * Counts, then the methods in use with their totals; the others behind a toggle. The figures move
 * without the merchant doing anything (deposits credited, sends and refunds completed): read
 * again when the tab is shown, then every few seconds as the lists are.
 */
export function UsageTab({ details: shown }: { details: AppDetails }) {
  const t = useT();
  const live = useGetAppDetailsQuery({ id: shown.app_data.id }, LIVE);
  const details = live.data?.data ?? shown;
  const { used, others } = splitByUse(details);
  const [showOthers, setShowOthers] = useState(false);
  return (
    <>
      <DownloadCsvButton kind="usage" appId={details.app_data.id} />
      <Row xs={1} sm={3} className="g-3 mb-4">
        <Col>
          <Figure label={t('usage.accounts')} value={details.generated_deposit_address} />
        </Col>
        <Col>
          <Figure label={t('usage.received')} value={details.total_transaction.incoming} />
        </Col>
        <Col>
          <Figure
            label={t('usage.sent')}
            value={details.total_transaction.outgoing}
            note={refundNote(t, details.total_transaction.refunds)}
          />
        </Col>
      </Row>
      <MethodCards methods={used} />
      {used.length === 0 && <p className="text-muted">{t('usage.none')}</p>}
      {used.length > 0 && <p className="small text-muted mt-3 mb-0">{t('usage.sweep')}</p>}
      {others.length > 0 && (
        <>
          <Button
            variant="link"
            className={`px-0 ${used.length > 0 ? 'mt-3' : ''}`}
            aria-expanded={showOthers}
            aria-controls="usage-other-methods"
            onClick={() => setShowOthers((shown) => !shown)}
          >
            {showOthers ? t('usage.hideOthers') : t('usage.showOthers', { count: others.length })}
          </Button>
          <div id="usage-other-methods" hidden={!showOthers}>
            {showOthers && <MethodCards methods={others} />}
          </div>
        </>
      )}
    </>
  );
}
