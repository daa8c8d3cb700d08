import { useState } from 'react';
import { EyeIcon, EyeOffIcon } from '../publicIcons';
import { TextInput, type TextInputProps } from './TextInput';
import { useT } from '../../i18n/i18n';

export type SecretInputProps = Omit<TextInputProps, 'type'> & {
  /** Names what is shown or hidden, translated, e.g. 'password' -> 'Show password'. */
  what: string;
  name: string;
};

/** A password-type input with a show/hide toggle inside it; the label is the caller's. */
export function SecretInput({ what, ...control }: SecretInputProps) {
  const t = useT();
  const [shown, setShown] = useState(false);
  return (
    <div className="position-relative has-end-btn">
      <TextInput {...control} type={shown ? 'text' : 'password'} />
      <button
        type="button"
        className="position-absolute top-50 end-0 translate-middle-y me-2 p-1 lh-1 border-0 bg-transparent text-body-secondary"
        aria-label={t(shown ? 'secret.hide' : 'secret.show', { what })}
        aria-pressed={shown}
        onClick={() => setShown((was) => !was)}
      >
        {shown ? <EyeOffIcon /> : <EyeIcon />}
      </button>
    </div>
  );
}
