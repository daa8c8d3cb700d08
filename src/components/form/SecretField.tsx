import { SecretInput, type SecretInputProps } from './SecretInput';

// Apart from SecretInput: /login uses the input alone and would otherwise carry this too.
type SecretFieldProps = Omit<SecretInputProps, 'what'> & {
  id: string;
  label: string;
  error?: string;
};

/** A SecretInput with its label and its validation message; the toggle is named by the label. */
export function SecretField({ label, error, ...input }: SecretFieldProps) {
  return (
    <div className="mb-3">
      <label className="form-label" htmlFor={input.id}>
        {label}
      </label>
      <SecretInput what={label} {...input} />
      {error && <div className="invalid-feedback d-block">{error}</div>}
    </div>
  );
}
