import type { AppDetails } from '../../api/apps';
import type { PaymentLink, PaymentLinkStatus } from '../../api/paymentLinks';
import type { StatusNames } from '../../components/StatusBadge';
import { PAYMENT_LINK_LIMITS, PAYMENT_LINK_MESSAGES } from '../../shared/paymentLinks';
import { CURRENCIES } from './invoiceRules';

// The Invoices tab's payment links: names and the Create payment link form's rules (not in the
// spec: an extension of the app detail, as the invoices are).

export const PAYMENT_LINK_STATUS: StatusNames<PaymentLinkStatus> = {
  active: { label: 'Active', bg: 'success' },
  expired: { label: 'Expired', bg: 'warning', text: 'dark' },
  used_up: { label: 'Used up', bg: 'secondary' },
  deactivated: { label: 'Deactivated', bg: 'danger' },
};

/** The price as the list reads it: fixed, a range, or any amount. */
export function linkAmount(
  link: Pick<PaymentLink, 'amount' | 'amount_min' | 'amount_max' | 'currency'>,
): string {
  const { amount, amount_min: min, amount_max: max, currency } = link;
  if (amount !== null) return `${amount} ${currency}`;
  if (min !== null && max !== null) return `from ${min} to ${max} ${currency}`;
  if (min !== null) return `from ${min} ${currency}`;
  if (max !== null) return `up to ${max} ${currency}`;
  return `any amount (${currency})`;
}

/** Its paid invoices, against its maximum when it has one. */
export function linkUses(link: Pick<PaymentLink, 'max_uses' | 'totals'>): string {
  return link.max_uses === null
    ? String(link.totals.uses)
    : `${link.totals.uses} / ${link.max_uses}`;
}

/** The app's methods a link may offer: those it uses with For Deposit on, named for a person. */
export function linkMethods(details: AppDetails): { id: string; label: string }[] {
  return details.user_payment_methods
    .filter((used) => used.deposit_status === 1)
    .flatMap((used) => {
      const method = details.all_payment_methods.find((m) => m.id === used.payment_method_id);
      return method ? [{ id: method.id, label: `${method.name} (${method.network_name})` }] : [];
    });
}

/** The Create payment link form's values, as typed. */
export interface NewLinkValues extends Record<string, string> {
  title: string;
  description: string;
  /** `fixed`: the merchant's amount; `chosen`: the shopper's, within the optional bounds. */
  pricing: string;
  amount: string;
  amount_min: string;
  amount_max: string;
  currency: string;
  /** The ticked methods' ids, comma-separated; none ticked: every method with For Deposit on. */
  methods: string;
  /** A datetime-local value, in the browser's time zone. */
  expires_at: string;
  max_uses: string;
  redirect_url: string;
}

const DECIMAL = /^[0-9]+(?:\.([0-9]+))?$/;
const URL_PATTERN = /^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s/?#@]+([/?#][^\s]*)?$/;

/** What is wrong with a price typed in `currency`, or undefined; `invalid` is its message. */
function priceFault(text: string, currency: string, invalid: string): string | undefined {
  const match = DECIMAL.exec(text);
  if (!match || Number(text) <= 0 || Number(text) > PAYMENT_LINK_LIMITS.amountMax) return invalid;
  const decimals = CURRENCIES.find((c) => c.code === currency)?.decimals;
  const places = match[1]?.length ?? 0;
  if (decimals !== undefined && places > decimals) {
    return `${currency} takes at most ${decimals} decimal${decimals === 1 ? '' : 's'}`;
  }
  return undefined;
}

/** The form's messages before a call, at `now`: the server checks the same and more. */
export function newLinkErrors(values: NewLinkValues, now: Date): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = {};
  const m = PAYMENT_LINK_MESSAGES;
  if (values.title.trim() === '') errors.title = m.titleRequired;
  if (values.currency === '') errors.currency = m.currencyRequired;
  if (values.pricing === 'fixed') {
    if (values.amount === '') errors.amount = m.amountRequired;
    else errors.amount = priceFault(values.amount, values.currency, m.amountInvalid);
  } else {
    if (values.amount_min !== '') {
      errors.amount_min = priceFault(values.amount_min, values.currency, m.minInvalid);
    }
    if (values.amount_max !== '') {
      errors.amount_max = priceFault(values.amount_max, values.currency, m.maxInvalid);
    }
    if (
      values.amount_min !== '' &&
      values.amount_max !== '' &&
      !errors.amount_min &&
      !errors.amount_max &&
      Number(values.amount_min) > Number(values.amount_max)
    ) {
      errors.amount_max = m.rangeInvalid;
    }
  }
  if (values.expires_at !== '') {
    const at = new Date(values.expires_at).getTime();
    if (Number.isNaN(at) || at <= now.getTime()) errors.expires_at = m.expiryInvalid;
  }
  if (values.max_uses !== '') {
    const uses = Number(values.max_uses);
    if (!/^[0-9]+$/.test(values.max_uses) || uses < 1 || uses > PAYMENT_LINK_LIMITS.maxUses) {
      errors.max_uses = m.maxUsesInvalid;
    }
  }
  if (values.redirect_url.trim() !== '' && !URL_PATTERN.test(values.redirect_url.trim())) {
    errors.redirect_url = m.redirectInvalid;
  }
  for (const key of Object.keys(errors)) if (errors[key] === undefined) delete errors[key];
  return errors;
}
