import type { FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Link } from 'react-router-dom';
import {
  useGetPurchaseQuoteQuery,
  type CurrentSubscription,
  type Package,
  type PurchaseQuote,
} from '../../../api/subscriptions';
import { paths } from '../../../app/paths';
import { QueryState } from '../../../components/QueryState';
import { useForm } from '../../../components/form/useForm';
import { formatDate, formatMoney } from '../../../lib/format';
import { DOWNGRADE_REASON_REQUIRED } from '../../../shared/money';
import { PLAN_ACTION_LABEL, type PlanAction } from '../planAction';
import { TitledModal } from '../../../components/TitledModal';
import { BusyButton } from '../../../components/BusyButton';

export interface PendingAction {
  plan: Package;
  action: PlanAction;
}

interface Props {
  pending: PendingAction | null;
  current: CurrentSubscription | null;
  currentName: string | undefined;
  symbol: string;
  busy: boolean;
  onHide: () => void;
  /**
   * Pays (the amount the merchant saw, so a changed price is refused, not charged) or cancels; a
   * rejection carries the server's field errors back to the form.
   */
  onConfirm: (remarks: string, amountDue?: number) => Promise<unknown>;
}

/** The price, the credit for the replaced plan's unused days, and what the wallet pays now. */
function QuoteLines({ quote, symbol }: { quote: PurchaseQuote; symbol: string }) {
  if (quote.credit === 0) return null;
  const money = (value: number) => formatMoney(value, symbol);
  return (
    <dl className="plan-quote">
      <dt>Plan price</dt>
      <dd>{money(quote.price)}</dd>
      <dt>
        Credit for {quote.unused_days} unused days of {quote.replaced_package}
      </dt>
      <dd>−{money(quote.credit)}</dd>
      <dt className="plan-quote__due">Due now</dt>
      <dd className="plan-quote__due">{money(quote.amount_due)}</dd>
      {quote.refund > 0 && (
        <>
          <dt>Returned to your wallet</dt>
          <dd>{money(quote.refund)}</dd>
        </>
      )}
    </dl>
  );
}

/** Confirms paying for a plan (with the reason a downgrade needs) or cancelling the current one. */
export function PlanActionModal({
  pending,
  current,
  currentName,
  symbol,
  busy,
  onHide,
  onConfirm,
}: Props) {
  const form = useForm({ remarks: '' }, { maxLength: { remarks: 500 } });
  const action = pending?.action;
  const plan = pending?.plan;
  const paying = plan !== undefined && action !== undefined && action !== 'cancel';
  // Priced by the server each time the dialog opens: the credit depends on the day and the
  // balance on every deposit.
  const quote = useGetPurchaseQuoteQuery(
    { packageId: plan?.id ?? '' },
    { skip: !paying, refetchOnMountOrArgChange: true },
  );
  const priced = paying && !quote.isFetching ? quote.data?.data : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (paying && !priced?.payable) return;
    if (action === 'downgrade' && form.values.remarks.trim() === '') {
      form.setErrors({ remarks: DOWNGRADE_REASON_REQUIRED });
      return;
    }
    try {
      await onConfirm(form.values.remarks.trim(), priced?.amount_due);
      form.reset();
    } catch (error) {
      form.applyServerErrors(error);
    }
  };

  const due = priced ? formatMoney(priced.amount_due, symbol) : '';
  const endDate = formatDate(current?.end_date);

  return (
    <TitledModal
      show={pending !== null}
      onHide={busy ? () => undefined : onHide}
      onExited={form.reset}
      title={action ? PLAN_ACTION_LABEL[action] : ''}
    >
      <Form noValidate onSubmit={(event) => void submit(event)}>
        <Modal.Body>
          {action === 'cancel' ? (
            <p className="mb-0">
              Cancel your {currentName ?? plan?.name} subscription? Nothing is refunded: your plan
              stays active until {endDate}.
            </p>
          ) : (
            <QueryState query={quote} what="the price">
              {({ data: q }) => (
                <>
                  <p>
                    Pay <strong>{due}</strong> from your wallet balance for the{' '}
                    <strong>{plan?.name}</strong> plan ({plan?.duration_days} days)?
                  </p>
                  <QuoteLines quote={q} symbol={symbol} />
                  {q.replaced_package && (
                    <p className="text-muted small">
                      Your {q.replaced_package} plan ends now and the {plan?.name} plan starts
                      today.
                    </p>
                  )}
                  {!q.payable && (
                    <Alert variant="warning" className="small">
                      Your balance of {formatMoney(q.balance, symbol)} does not cover{' '}
                      {formatMoney(q.amount_due, symbol)}.{' '}
                      <Link to={paths.wallet}>Deposit fund</Link>
                    </Alert>
                  )}
                  {action === 'downgrade' && (
                    <Form.Group controlId="downgrade-remarks">
                      <Form.Label>Reason for Downgrade</Form.Label>
                      <Form.Control as="textarea" rows={3} {...form.bind('remarks')} />
                      <Form.Control.Feedback type="invalid">
                        {form.errors.remarks}
                      </Form.Control.Feedback>
                    </Form.Group>
                  )}
                </>
              )}
            </QueryState>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Close
          </Button>
          {action === 'cancel' ? (
            <BusyButton type="submit" variant="danger" busy={busy}>
              Yes, Cancel Subscription
            </BusyButton>
          ) : (
            <BusyButton
              type="submit"
              variant="primary"
              busy={busy}
              disabled={busy || !priced?.payable}
            >
              {priced ? `Pay ${due}` : 'Pay'}
            </BusyButton>
          )}
        </Modal.Footer>
      </Form>
    </TitledModal>
  );
}
