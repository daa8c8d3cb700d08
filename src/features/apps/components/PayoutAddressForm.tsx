import type { FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useForm } from '../../../components/form/useForm';
import { payoutAddressError } from '../appRules';
import { BusyButton } from '../../../components/BusyButton';
import { useT } from '../../../i18n/i18n';

interface Props {
  networkType: string;
  initial?: string;
  submitLabel: string;
  submitting: boolean;
  /** Throws the API error so that its message lands on the field. */
  onSubmit: (address: string) => Promise<void>;
  onCancel: () => void;
}

/** A payout address field with the spec's checks ('Payout addrress is required', ...). */
export function PayoutAddressForm({
  networkType,
  initial = '',
  submitLabel,
  submitting,
  onSubmit,
  onCancel,
}: Props) {
  const t = useT();
  const form = useForm({ collect_address: initial }, { maxLength: { collect_address: 128 } });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = form.values.collect_address.trim();
    const error = payoutAddressError(networkType, address);
    if (error) {
      form.setErrors({ collect_address: error });
      return;
    }
    try {
      await onSubmit(address);
    } catch (failure) {
      form.applyServerErrors(failure);
    }
  };

  return (
    <Form noValidate onSubmit={(event) => void submit(event)}>
      <Form.Group controlId={`payout-address-${networkType}`}>
        <Form.Label>{t('payout.label')}</Form.Label>
        <Form.Control
          {...form.bind('collect_address')}
          autoComplete="off"
          spellCheck={false}
          placeholder={networkType === 'EVM' ? '0x…' : 'T…'}
          className="font-monospace"
        />
        <Form.Control.Feedback type="invalid">{form.errors.collect_address}</Form.Control.Feedback>
      </Form.Group>
      <div className="d-flex justify-content-end gap-2 mt-3">
        <Button variant="outline-secondary" onClick={onCancel}>
          {t('kyc.cancel')}
        </Button>
        <BusyButton type="submit" busy={submitting}>
          {submitLabel}
        </BusyButton>
      </div>
    </Form>
  );
}
