import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { CurrentSubscription, Package } from '../../../api/subscriptions';
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
  /** Pays or cancels; a rejection carries the server's field errors back to the form. */
  onConfirm: (remarks: string) => Promise<unknown>;
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (action === 'downgrade' && form.values.remarks.trim() === '') {
      form.setErrors({ remarks: DOWNGRADE_REASON_REQUIRED });
      return;
    }
    try {
      await onConfirm(form.values.remarks.trim());
      form.reset();
    } catch (error) {
      form.applyServerErrors(error);
    }
  };

  const price = plan ? formatMoney(plan.price, symbol) : '';
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
            <>
              <p>
                Pay <strong>{price}</strong> from your wallet balance for the{' '}
                <strong>{plan?.name}</strong> plan ({plan?.duration_days} days)?
              </p>
              {action !== 'choose' && currentName && (
                <p className="text-muted small">
                  Your {currentName} plan ends now and the {plan?.name} plan starts today.
                </p>
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
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide} disabled={busy}>
            Close
          </Button>
          <BusyButton
            type="submit"
            variant={action === 'cancel' ? 'danger' : 'primary'}
            busy={busy}
          >
            {action === 'cancel' ? 'Yes, Cancel Subscription' : `Pay ${price}`}
          </BusyButton>
        </Modal.Footer>
      </Form>
    </TitledModal>
  );
}
