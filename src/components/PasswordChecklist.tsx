import { useLayoutEffect, useRef } from 'react';
import { PASSWORD_RULES } from '../shared/account';
import { t as translate, useT, type MessageKey } from '../i18n/i18n';
import '../i18n/auth';
import './passwordChecklist.scss';

export interface PasswordChecklistProps {
  password: string;
  /** For the password input's aria-describedby. */
  id?: string;
  className?: string;
}

/** Each rule of the shared list (its English label) to its message in the auth catalogue. */
const RULE_KEYS: Record<string, MessageKey> = {
  'One lowercase letter': 'password.lowercase',
  'One uppercase letter': 'password.uppercase',
  'One number': 'password.number',
  'One special character': 'password.special',
  '8 characters or more': 'password.length',
};

/** A password rule's label in the language in use (the auth catalogue must be loaded). */
export function passwordRuleLabel(label: string): string {
  const key = RULE_KEYS[label];
  return key ? translate(key) : label;
}

function Mark({ met }: { met: boolean }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 16 16"
      aria-hidden="true"
      className="me-2 flex-shrink-0"
    >
      <circle cx="8" cy="8" r="7.25" fill={met ? 'currentColor' : 'none'} stroke="currentColor" />
      {met && <path d="m4.8 8.2 2.1 2.1 4.3-4.5" fill="none" stroke="#fff" strokeWidth="1.6" />}
    </svg>
  );
}

/**
 * The live checklist under a new password: each rule turns green as it is met; screen readers
 * hear each rule's state. Sign-up also names the unmet rules when it is submitted.
 */
export function PasswordChecklist({ password, id, className = '' }: PasswordChecklistProps) {
  const t = useT();
  const met = PASSWORD_RULES.filter((rule) => rule.test(password)).length;
  const fill = useRef<HTMLDivElement>(null);
  // Set through the CSSOM, not a style attribute: sign-up is prerendered, and the strict CSP
  // (server/src/http/web.ts) blocks style attributes in markup.
  useLayoutEffect(() => {
    if (fill.current) fill.current.style.width = `${(met / PASSWORD_RULES.length) * 100}%`;
  }, [met]);
  return (
    <div id={id} className={`small ${className}`}>
      <div className="d-flex justify-content-between align-items-center mb-1">
        <span className="fw-semibold text-body-secondary">{t('password.mustContain')}</span>
        <span className="text-body-secondary" aria-hidden="true">
          {met}/{PASSWORD_RULES.length}
        </span>
      </div>
      <div
        className="password-meter mb-2 rounded-pill bg-body-secondary overflow-hidden"
        role="progressbar"
        aria-label={t('password.strength')}
        aria-valuenow={met}
        aria-valuemin={0}
        aria-valuemax={PASSWORD_RULES.length}
      >
        <div
          ref={fill}
          className={`password-meter-fill h-100 ${met === PASSWORD_RULES.length ? 'bg-success' : met >= 3 ? 'bg-warning' : 'bg-danger'}`}
        />
      </div>
      <ul className="list-unstyled mb-0 row row-cols-1 row-cols-sm-2 g-1">
        {PASSWORD_RULES.map((rule) => {
          const ok = rule.test(password);
          return (
            <li
              key={rule.label}
              className={`col d-flex align-items-center ${ok ? 'text-success' : 'text-body-secondary'}`}
            >
              <Mark met={ok} />
              {passwordRuleLabel(rule.label)}
              <span className="visually-hidden">
                {' '}
                {t(ok ? 'password.done' : 'password.missing')}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
