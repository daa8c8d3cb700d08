import fs from 'node:fs';
import path from 'node:path';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { ABILITY_TITLES } from '../shared/apps';
import { INVOICE_MESSAGES } from '../shared/invoices';
import { PAYMENT_LINK_MESSAGES } from '../shared/paymentLinks';
import { REFUND_MESSAGES } from '../shared/refunds';
import portalEn from './catalogues/portal/en.json';
import { LANGUAGES } from './languages';

// Every catalogue has every key of the English one and no other, fills in the same values
// ({amount}), parses as ICU, and is translated: a message reads the same as the English one only
// where it holds no word (values, symbols) or where this list says the language uses that word.

const root = path.join(__dirname, 'catalogues');
const namespaces = fs.readdirSync(root);
type Catalogue = Record<string, string>;
const read = (namespace: string, language: string): Catalogue =>
  JSON.parse(fs.readFileSync(path.join(root, namespace, `${language}.json`), 'utf8')) as Catalogue;

/** Messages a language writes as English does: its own word for it, or a name. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  'language.en': ['fr', 'it', 'ru', 'ja', 'es', 'vi', 'tr'],
  'login.password': ['it'],
  'layout.menu': ['fr', 'it'],
  'settings.download': ['it'],
  'notifications.title': ['fr'],
  'toasts.region': ['fr'],
  'register.email': ['vi'],
  'dashboard.type': ['fr'],
  'dashboard.total': ['fr', 'es'],
  'dashboard.transactions': ['fr'],
  'page.nav': ['fr'],
  'page.number': ['fr'],
  'history.date': ['fr'],
  'history.action': ['fr'],
  'person.email': ['vi'],
  'support.conversations': ['fr'],
  'support.message': ['fr'],
  'kyc.document': ['fr'],
  'kyc.photo': ['fr'],
  'kyc.images': ['fr'],
  'logo.label': ['fr', 'it', 'vi', 'tr'],
  'webhook.title': ['fr', 'it', 'es', 'vi', 'tr'],
  'logs.route': ['fr'],
  'tx.test': ['fr', 'it', 'tr'],
  'invDetail.description': ['fr'],
  'invDetail.confirmations': ['fr'],
  'link.link': ['it'],
  'refundForm.token': ['it', 'es', 'vi', 'tr'],
};

/** The values a message fills in, with their ICU type (plural, number...) if any. */
const placeholders = (message: string) =>
  [...message.matchAll(/\{\s*(\w+)\s*(?:,\s*(\w+))?/g)].map((m) => `${m[1]}:${m[2] ?? ''}`).sort();
/** Rich-text tags (<0>…</0>) a message wraps words in. */
const tags = (message: string) => [...message.matchAll(/<\/?(\d+)>/g)].map((m) => m[0]).sort();

test('there is a catalogue per namespace and language, and nothing else', () => {
  expect(namespaces.sort()).toEqual(['auth', 'portal', 'public', 'server']);
  for (const namespace of namespaces) {
    expect(fs.readdirSync(path.join(root, namespace)).sort()).toEqual(
      LANGUAGES.map((language) => `${language}.json`).sort(),
    );
  }
});

describe.each(namespaces)('the %s namespace', (namespace) => {
  const english = read(namespace, 'en');
  const keys = Object.keys(english);

  test('English messages parse as ICU messages', () => {
    for (const key of keys) expect(() => compileMessage(english[key] ?? '')).not.toThrow();
  });

  describe.each(LANGUAGES.filter((language) => language !== 'en'))('in %s', (language) => {
    const catalogue = read(namespace, language);

    test('has every key of the English catalogue, and no other', () => {
      expect(Object.keys(catalogue).sort()).toEqual([...keys].sort());
    });

    test('fills in the same values and tags as English, and parses', () => {
      const wrong = keys.filter((key) => {
        const message = catalogue[key] ?? '';
        const source = english[key] ?? '';
        try {
          compileMessage(message);
        } catch {
          return true;
        }
        return (
          message.trim() === '' ||
          placeholders(message).join() !== placeholders(source).join() ||
          tags(message).join() !== tags(source).join()
        );
      });
      expect(wrong).toEqual([]);
    });

    test("a link's accessible name holds its visible words (axe: label-content-name-mismatch)", () => {
      // A key `xOf` names the link whose visible text is `x`: "View Details of {name}".
      const mismatched = keys
        .filter((key) => key.endsWith('Of') && keys.includes(key.slice(0, -2)))
        .filter((key) => {
          const visible = (catalogue[key.slice(0, -2)] ?? '').toLocaleLowerCase(language);
          return !(catalogue[key] ?? '').toLocaleLowerCase(language).includes(visible);
        });
      expect(mismatched).toEqual([]);
    });

    test('is translated, not English', () => {
      const words = (message: string) => message.replace(/\{[^}]*\}|<\/?\d+>/g, '');
      const untranslated = keys.filter(
        (key) =>
          catalogue[key] === english[key] &&
          /[A-Za-z]{3}/.test(words(english[key] ?? '')) &&
          !SAME_AS_ENGLISH[key]?.includes(language),
      );
      expect(untranslated).toEqual([]);
    });
  });
});

test("the forms' messages checked before a call say in English what the server says", () => {
  const pairs: [keyof typeof portalEn, string][] = [
    ['invoiceSettings.toleranceInvalid', INVOICE_MESSAGES.toleranceInvalid],
    ['invoiceSettings.lateInvalid', INVOICE_MESSAGES.lateWindowInvalid],
    ['invForm.amountRequired', INVOICE_MESSAGES.amountRequired],
    ['invForm.amountInvalid', INVOICE_MESSAGES.amountInvalid],
    ['invForm.currencyRequired', INVOICE_MESSAGES.currencyRequired],
    ['invForm.expiryInvalid', INVOICE_MESSAGES.expiryInvalid],
    ['invForm.reasonRequired', INVOICE_MESSAGES.reasonRequired],
    ['linkForm.titleRequired', PAYMENT_LINK_MESSAGES.titleRequired],
    ['linkForm.currencyRequired', PAYMENT_LINK_MESSAGES.currencyRequired],
    ['linkForm.amountRequired', PAYMENT_LINK_MESSAGES.amountRequired],
    ['linkForm.amountInvalid', PAYMENT_LINK_MESSAGES.amountInvalid],
    ['linkForm.minInvalid', PAYMENT_LINK_MESSAGES.minInvalid],
    ['linkForm.maxInvalid', PAYMENT_LINK_MESSAGES.maxInvalid],
    ['linkForm.rangeInvalid', PAYMENT_LINK_MESSAGES.rangeInvalid],
    ['linkForm.expiryInvalid', PAYMENT_LINK_MESSAGES.expiryInvalid],
    ['linkForm.maxUsesInvalid', PAYMENT_LINK_MESSAGES.maxUsesInvalid],
    ['linkForm.redirectInvalid', PAYMENT_LINK_MESSAGES.redirectInvalid],
    ['refundForm.methodInvalid', REFUND_MESSAGES.methodInvalid],
    ['refundForm.amountRequired', REFUND_MESSAGES.amountRequired],
    ['refundForm.amountInvalid', REFUND_MESSAGES.amountInvalid],
    ['refundForm.reasonRequired', REFUND_MESSAGES.reasonRequired],
    ['refundForm.reasonTooLong', REFUND_MESSAGES.reasonTooLong],
  ];
  expect(pairs.filter(([key, message]) => portalEn[key] !== message)).toEqual([]);
});

test("the API keys' permissions say in English what the server says, by ability id", () => {
  const english = portalEn as Record<string, string>;
  const keys = Object.keys(english).filter((key) => key.startsWith('keys.ability.'));
  expect(keys).toEqual(Object.keys(ABILITY_TITLES).map((id) => `keys.ability.${id}`));
  expect(
    Object.entries(ABILITY_TITLES).filter(([id, title]) => english[`keys.ability.${id}`] !== title),
  ).toEqual([]);
});
