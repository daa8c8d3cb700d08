import { useCallback, useRef, useState, type ChangeEvent } from 'react';
import type { ApiError } from '../../api/errors';

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;
export type Filter = (raw: string) => string;

/** Input filters of the spec, e.g. name letters and spaces only. */
export const filters = {
  digits: (raw: string) => raw.replace(/[^0-9]/g, ''),
  digitsPlus: (raw: string) => raw.replace(/[^0-9+]/g, ''),
  letters: (raw: string) => raw.replace(/[^A-Za-z ]/g, ''),
  email: (raw: string) => raw.replace(/[^A-Za-z0-9@.]/g, ''),
} satisfies Record<string, Filter>;

const checkedValue = (checked: boolean) => (checked ? '1' : '');

const isCheckbox = (input: Element): input is HTMLInputElement =>
  input instanceof HTMLInputElement && input.type === 'checkbox';

interface Options<T> {
  filters?: Partial<Record<keyof T & string, Filter>>;
  maxLength?: Partial<Record<keyof T & string, number>>;
}

/**
 * Local form state (never in Redux). A field's error clears as soon as the user edits it,
 * and server field errors from the envelope land on the same fields.
 */
export function useForm<T extends Record<string, string>>(initial: T, options: Options<T> = {}) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<FieldErrors<T>>({});

  const setField = useCallback(
    (name: keyof T & string, raw: string) => {
      const filter = options.filters?.[name];
      const max = options.maxLength?.[name];
      let value = filter ? filter(raw) : raw;
      if (max !== undefined) value = value.slice(0, max);
      setValues((current) => ({ ...current, [name]: value }));
      setErrors((current) => {
        if (!current[name]) return current;
        const next = { ...current };
        delete next[name];
        return next;
      });
    },
    [options.filters, options.maxLength],
  );

  // What was typed into a prerendered form (src/prerender.tsx) before the script took it over is
  // in the inputs, not in this state, and hydration leaves it on screen: each field's input is read
  // once, as it first attaches, so nothing typed is lost. A field rendered by React already holds
  // the state's value then, so this changes nothing elsewhere.
  const attached = useRef(new Set<string>());
  const adoptTyped =
    (name: keyof T & string) =>
    (input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null) => {
      if (!input || attached.current.has(name)) return;
      attached.current.add(name);
      const shown = isCheckbox(input) ? checkedValue(input.checked) : input.value;
      if (shown !== values[name]) setField(name, shown);
    };

  const bind = (name: keyof T & string) => ({
    name,
    value: values[name],
    isInvalid: Boolean(errors[name]),
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
      setField(name, event.target.value),
    ref: adoptTyped(name),
  });

  /** A checkbox field: '1' when ticked, '' when not (the form holds strings). */
  const check = (name: keyof T & string) => ({
    name,
    checked: values[name] === checkedValue(true),
    isInvalid: Boolean(errors[name]),
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      setField(name, checkedValue(event.target.checked)),
    ref: adoptTyped(name),
  });

  /** Puts the first message of each server field error on the matching field. */
  const applyServerErrors = (error: unknown) => {
    const fieldErrors = (error as Partial<ApiError> | undefined)?.fieldErrors;
    if (!fieldErrors) return;
    const next: FieldErrors<T> = {};
    for (const [field, messages] of Object.entries(fieldErrors)) {
      if (field in values && messages[0]) next[field as keyof T & string] = messages[0];
    }
    setErrors((current) => ({ ...current, ...next }));
  };

  const reset = () => {
    setValues(initial);
    setErrors({});
  };

  return { values, errors, setErrors, setField, bind, check, applyServerErrors, reset };
}
