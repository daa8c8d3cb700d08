import Button, { type ButtonProps } from 'react-bootstrap/Button';
import { toast } from './toast';

export const DEFAULT_COPIED_TEXT = 'Copied Successfully';

interface Props extends Omit<ButtonProps, 'onClick'> {
  value: string;
  /** Toast shown after copying; the spec uses several spellings per screen. */
  successText?: string;
  label?: string;
}

export async function copyText(value: string, successText = DEFAULT_COPIED_TEXT) {
  try {
    await navigator.clipboard.writeText(value);
    toast.success(successText);
  } catch (error) {
    toast.error(error instanceof Error ? error.message : String(error));
  }
}

export function CopyButton({ value, successText, label = 'Copy', children, ...rest }: Props) {
  return (
    <Button
      variant="outline-secondary"
      size="sm"
      aria-label={label}
      title={label}
      {...rest}
      onClick={() => void copyText(value, successText)}
    >
      {children ?? label}
    </Button>
  );
}
