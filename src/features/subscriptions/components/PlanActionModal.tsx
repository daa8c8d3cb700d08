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
import { PLAN_ACTION_LABEL, type PlanAction } from '../planAction';
import { TitledModal } from '../../../components/TitledModal';
import { BusyButton } from '../../../components/BusyButton';
import { t as translate, useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

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
  const t = useT();
  if (quote.credit === 0) return null;
  const money = (value: number) => formatMoney(value, symbol);
  return (
    <dl className="plan-quote">
      <dt>{t('plans.quotePrice')}</dt>
      <dd>{money(quote.price)}</dd>
      <dt>
        {t('plans.quoteCredit', { days: quote.unused_days, plan: quote.replaced_package ?? '' })}
      </dt>
      <dd>−{money(quote.credit)}</dd>
      <dt className="plan-quote__due">{t('plans.quoteDue')}</dt>
      <dd className="plan-quote__due">{money(quote.amount_due)}</dd>
      {quote.refund > 0 && (
        <>
          <dt>{t('plans.quoteRefund')}</dt>
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
  const t = useT();
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
      // DOWNGRADE_REASON_REQUIRED (shared/money), as the server says it, in the language in use.
      form.setErrors({ remarks: translate('plans.reasonRequired') });
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
      title={action ? t(PLAN_ACTION_LABEL[action]) : ''}
    >
      <Form noValidate onSubmit={(event) => void submit(event)}>
        <Modal.Body>
          {action === 'cancel' ? (
            <p className="mb-0">
              {t('plans.cancelConfirm', { plan: currentName ?? plan?.name ?? '', date: endDate })}
            </p>
          ) : (
            <QueryState query={quote} what={t('plans.priceWhat')}>
              {({ data: q }) => (
                <>
                  <p>
                    {withNodes(
                      t,
                      'plans.payConfirm',
                      { days: plan?.duration_days ?? 0 },
                      { amount: <strong>{due}</strong>, plan: <strong>{plan?.name}</strong> },
                    )}
                  </p>
                  <QuoteLines quote={q} symbol={symbol} />
                  {q.replaced_package && (
                    <p className="text-muted small">
                      {t('plans.replaces', { old: q.replaced_package, plan: plan?.name ?? '' })}
                    </p>
                  )}
                  {!q.payable && (
                    <Alert variant="warning" className="small">
                      {t('plans.short', {
                        balance: formatMoney(q.balance, symbol),
                        due: formatMoney(q.amount_due, symbol),
                      })}{' '}
                      <Link to={paths.wallet}>{t('dashboard.deposit')}</Link>
                    </Alert>
                  )}
                  {action === 'downgrade' && (
                    <Form.Group controlId="downgrade-remarks">
                      <Form.Label>{t('plans.reason')}</Form.Label>
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
            {t('common.close')}
          </Button>
          {action === 'cancel' ? (
            <BusyButton type="submit" variant="danger" busy={busy}>
              {t('plans.cancelYes')}
            </BusyButton>
          ) : (
            <BusyButton
              type="submit"
              variant="primary"
              busy={busy}
              disabled={busy || !priced?.payable}
            >
              {priced ? t('plans.payAmount', { amount: due }) : t('plans.pay')}
            </BusyButton>
          )}
        </Modal.Footer>
      </Form>
    </TitledModal>
  );
}
