import type { FormEvent } from 'react';
import type { FieldErrors, useForm } from './useForm';

type Form<T extends Record<string, string>> = Pick<
  ReturnType<typeof useForm<T>>,
  'values' | 'setErrors' | 'applyServerErrors'
>;

/**
 * A form's submit handler: `validate` puts its messages on the fields; when there are none,
 * `send` gets the values, and a refusal's field errors land on the fields too.
 */
export function validSubmit<T extends Record<string, string>>(
  form: Form<T>,
  validate: (values: T) => FieldErrors<T>,
  send: (values: T) => Promise<unknown>,
) {
  return async (event: FormEvent) => {
    event.preventDefault();
    const errors = validate(form.values);
    form.setErrors(errors);
    if (Object.keys(errors).length > 0) return;
    try {
      await send(form.values);
    } catch (error) {
      form.applyServerErrors(error);
    }
  };
}
