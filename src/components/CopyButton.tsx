import Button, { type ButtonProps } from 'react-bootstrap/Button';
import { toast } from './toast';
import { t, useT } from '../i18n/i18n';

interface Props extends Omit<ButtonProps, 'onClick'> {
  value: string;
  /** Toast shown after copying (copy.done by default); the spec uses several spellings per screen. */
  successText?: string;
  label?: string;
}

export async function copyText(value: string, successText = t('copy.done')) {
  try {
    await navigator.clipboard.writeText(value);
    toast.success(successText);
  } catch (error) {
    toast.error(error instanceof Error ? error.message : String(error));
  }
}

export function CopyButton({ value, successText, label, children, ...rest }: Props) {
  const translate = useT();
  const name = label ?? translate('copy.label');
  return (
    <Button
      variant="outline-secondary"
      size="sm"
      aria-label={name}
      title={name}
      {...rest}
      onClick={() => void copyText(value, successText)}
    >
      {children ?? name}
    </Button>
  );
}
