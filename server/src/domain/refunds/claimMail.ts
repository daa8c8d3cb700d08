import type { Db } from '../../db/connection';
import { sendMail, type MailConfig, type MailLog } from '../mailer';
import type { Clock } from '../time';
import type { Refunded } from './refunds';

// A refund with a claim link is mailed to the invoice's buyer_email, when it has one: the
// shopper gets the link without the merchant passing it on. The mail goes after the refund is
// written; one that cannot be sent is logged, and the merchant still has the link to send.

export async function mailClaimLink(
  deps: { db: Db; config: MailConfig; clock: Clock },
  made: Refunded,
  log: MailLog,
): Promise<void> {
  const { refund, claimUrl, buyerEmail } = made;
  if (claimUrl === null || buyerEmail === null) return;
  const app = await deps.db
    .selectFrom('invoices')
    .innerJoin('apps', 'apps.id', 'invoices.app_id')
    .select('apps.app_name')
    .where('invoices.id', '=', refund.invoice_id)
    .executeTakeFirst();
  const merchant = app?.app_name ?? 'The merchant';
  const until = refund.claim_expires_at
    ? new Date(refund.claim_expires_at).toUTCString()
    : 'its expiry';
  try {
    await sendMail(
      deps.config,
      {
        to: buyerEmail,
        subject: `${merchant} is refunding you ${refund.amount} ${refund.method}`,
        text:
          `${merchant} is refunding you ${refund.amount} ${refund.method} (order ${refund.invoice_id}). ` +
          `Open ${claimUrl} and enter the address to receive it on that network. ` +
          `If it is an exchange's deposit address, make sure the exchange accepts ${refund.method} on that network. ` +
          `The link works until ${until}.`,
      },
      log,
      deps.clock,
    );
  } catch (err) {
    log.error({ err, refund: refund.id }, 'The claim link could not be mailed');
  }
}
