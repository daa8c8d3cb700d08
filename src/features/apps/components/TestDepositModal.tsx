import type { FormEvent } from 'react';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Button from 'react-bootstrap/Button';
import { useSendTestDepositMutation, type Account } from '../../../api/apps';
import { BusyButton } from '../../../components/BusyButton';
import { useForm } from '../../../components/form/useForm';
import { TitledModal } from '../../../components/TitledModal';
import { testAmountError } from '../appRules';
import { useT } from '../../../i18n/i18n';
import { withNodes } from '../../../i18n/withNodes';

/**
 * Test mode: a payer's transfer to the account on the local chain. The watcher then shows it in
 * Receive as Pending and credits it once blocks are mined, as it would a real payment.
 */
export function TestDepositModal({
  account,
  onHide,
}: {
  account: Account | null;
  onHide: () => void;
}) {
  const t = useT();
  return (
    <TitledModal show={account !== null} onHide={onHide} title={t('testDeposit.title')}>
      {account && <TestDepositForm account={account} onDone={onHide} />}
    </TitledModal>
  );
}

function TestDepositForm({ account, onDone }: { account: Account; onDone: () => void }) {
  const t = useT();
  const [send, { isLoading }] = useSendTestDepositMutation();
  const form = useForm(
    { method: account.test_methods[0] ?? '', amount: '' },
    { maxLength: { amount: 20 } },
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amount = form.values.amount.trim();
    const error = testAmountError(amount);
    if (error) {
      form.setErrors({ amount: error });
      return;
    }
    try {
      await send({
        testDepositRequest: { account_id: account.id, method: form.values.method, amount },
      }).unwrap();
      onDone();
    } catch (failure) {
      form.applyServerErrors(failure);
    }
  };

  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      <Modal.Body>
        <p className="small text-muted">
          {withNodes(
            t,
            'testDeposit.intro',
            { id: account.unique_id },
            { address: <span className="font-monospace text-break">{account.address}</span> },
          )}
        </p>
        {account.test_methods.length > 1 && (
          <Form.Group controlId="test-deposit-method" className="mb-3">
            <Form.Label>{t('testDeposit.method')}</Form.Label>
            <Form.Select {...form.bind('method')}>
              {account.test_methods.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        )}
        <Form.Group controlId="test-deposit-amount">
          <Form.Label>{t('testDeposit.amount', { method: form.values.method })}</Form.Label>
          <Form.Control
            {...form.bind('amount')}
            inputMode="decimal"
            autoComplete="off"
            placeholder="25.5"
          />
          <Form.Control.Feedback type="invalid">{form.errors.amount}</Form.Control.Feedback>
        </Form.Group>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onDone}>
          {t('kyc.cancel')}
        </Button>
        <BusyButton type="submit" busy={isLoading}>
          {t('testDeposit.send')}
        </BusyButton>
      </Modal.Footer>
    </Form>
  );
}
