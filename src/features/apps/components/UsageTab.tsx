import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { AppDetails } from '../../../api/apps';
import { formatAmount } from '../../../lib/format';

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Card className="h-100 usage-card">
      <Card.Body>
        <div className="small text-muted">{label}</div>
        <div className="fs-4 fw-semibold text-break">{value}</div>
      </Card.Body>
    </Card>
  );
}

/** Counts, then per payment method the totals received and sent (6 decimals). */
export function UsageTab({ details }: { details: AppDetails }) {
  return (
    <>
      <Row xs={1} sm={3} className="g-3 mb-4">
        <Col>
          <Figure label="Generated Accounts" value={details.generated_deposit_address} />
        </Col>
        <Col>
          <Figure label="Received Transactions" value={details.total_transaction.incoming} />
        </Col>
        <Col>
          <Figure label="Sent Transactions" value={details.total_transaction.outgoing} />
        </Col>
      </Row>
      <Row xs={1} md={2} xxl={3} className="g-3">
        {details.all_payment_methods.map((method) => (
          <Col key={method.id}>
            <Card className="h-100">
              <Card.Body>
                <h3 className="h6 mb-3">
                  {method.name}{' '}
                  <span className="text-muted fw-normal">({method.network_name})</span>
                </h3>
                <dl className="mb-0 usage-totals">
                  <div>
                    <dt className="small fw-normal text-muted">Total Received</dt>
                    <dd className="mb-0 fw-semibold">{formatAmount(method.total_amount, 6)}</dd>
                  </div>
                  <div>
                    <dt className="small fw-normal text-muted">Total Sent</dt>
                    <dd className="mb-0 fw-semibold">
                      {formatAmount(method.total_withdraw_amount, 6)}
                    </dd>
                  </div>
                </dl>
              </Card.Body>
            </Card>
          </Col>
        ))}
      </Row>
    </>
  );
}
