import type { InputHTMLAttributes } from 'react';

export type TextInputProps = InputHTMLAttributes<HTMLInputElement> & {
  isInvalid?: boolean;
  isValid?: boolean;
};

/**
 * Bootstrap's form-control on a plain input (react-bootstrap's prop names). The sign-in screen
 * uses these instead of react-bootstrap's form components, which would add ~2.5 KiB gzipped to
 * what /login loads (npm run size).
 */
export function TextInput({ isInvalid, isValid, className, ...input }: TextInputProps) {
  const classes = ['form-control', isInvalid && 'is-invalid', isValid && 'is-valid', className];
  return <input {...input} className={classes.filter(Boolean).join(' ')} />;
}
