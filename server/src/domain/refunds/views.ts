import type { Db } from '../../db/connection';
import type { RefundStatus } from '../../db/schema';
import type { components } from '../../generated/gateway.gen';
import { afterCursor, pageOf } from '../cursor';
import { NotFoundError } from '../errors';
import type { Unmoded } from '../livemode';
import { codedMessages } from '../messageCodes';
import { unitsToDecimal } from '../money';
import { openSecret, sealSecret, type SealScope } from '../sealing';

export type Refund = Unmoded<components['schemas']['Refund']>;

/** A refund id the app does not have (the id is a value); the refunds' other words are refunds.ts'. */
const REFUND_VIEW_MSG = codedMessages('refund', {
  notFound: (id: string) => `No refund ${id}.`,
} as const);

// A refund as the gateway shows it, shared by its handlers and the refund.* webhooks, whose
// `data` is what GET /refunds/{id} answers at that moment. The claim link is a bearer secret
// (whoever holds it chooses where the money goes): stored hashed to find it and sealed to show
// the merchant again, shown only while the refund waits for its claim.

const CLAIM_SCOPE: SealScope = { salt: 'refund-claim', info: 'claim link v1' };

/** The claim link sealed for the refund's row (the merchant's view opens it). */
export function sealClaimUrl(serverKey: string, refundId: string, url: string): string {
  return sealSecret(serverKey, CLAIM_SCOPE, refundId, url);
}

/** A refund's row with its method, as every read of it loads it. */
export function refundRows(db: Db) {
  return db
    .selectFrom('refunds')
    .innerJoin('payment_methods as pm', 'pm.id', 'refunds.payment_method_id')
    .leftJoin('send_transactions as s', 's.id', 'refunds.send_id')
    .selectAll('refunds')
    .select(['pm.code as method_code', 'pm.decimals', 'pm.chain_id', 's.tx_hash']);
}

export type RefundRow = Awaited<ReturnType<ReturnType<typeof refundRows>['execute']>>[number];

/** How a view finds the claim link: the server's key opens the sealed one. */
export interface ClaimUrls {
  serverKey: string;
}

export function refundView(row: RefundRow, urls: ClaimUrls | null): Refund {
  const claimUrl =
    row.status === 'pending_claim' && row.claim_token_sealed !== null && urls !== null
      ? openSecret(urls.serverKey, CLAIM_SCOPE, row.id, row.claim_token_sealed)
      : null;
  const time = (at: string | null) => (at === null ? null : new Date(at).toISOString());
  return {
    id: row.id,
    invoice_id: row.invoice_id,
    status: row.status,
    method: row.method_code ?? '',
    chain_id: row.chain_id ?? 0,
    amount: unitsToDecimal(BigInt(row.amount_raw), row.decimals),
    amount_kind: row.amount_kind,
    requested_amount: row.requested_amount,
    requested_currency: row.requested_currency,
    rate_kind: row.rate_kind,
    rate: row.rate,
    reason: row.reason,
    from_address: row.from_address,
    address: row.address,
    address_source: row.address_source,
    claim_url: claimUrl,
    claim_expires_at: time(row.claim_expires_at),
    claimed_at: time(row.claimed_at),
    tx_hash: row.tx_hash ?? null,
    waiting_message: row.waiting_message,
    failure_reason: row.failure_reason,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** The refund `id` of `appId`'s, as its row; 404 for another app's or none. */
export async function refundRow(db: Db, appId: string, id: string): Promise<RefundRow> {
  const row = await refundRows(db)
    .where('refunds.id', '=', id)
    .where('refunds.app_id', '=', appId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError(REFUND_VIEW_MSG.notFound(id));
  return row;
}

export interface RefundFilter {
  invoiceId?: string;
  status?: RefundStatus;
}

/** A page of the app's refunds, newest first, by (created_at, id) cursor. */
export async function listRefunds(
  db: Db,
  appId: string,
  filter: RefundFilter,
  page: { cursor: string | undefined; limit: number },
): Promise<{ rows: RefundRow[]; nextCursor: string | null }> {
  const rows = await refundRows(db)
    .where('refunds.app_id', '=', appId)
    .$if(filter.invoiceId !== undefined, (q) =>
      q.where('refunds.invoice_id', '=', filter.invoiceId ?? ''),
    )
    .$if(filter.status !== undefined, (q) =>
      q.where('refunds.status', '=', filter.status ?? 'queued'),
    )
    .$if(page.cursor !== undefined, (q) => q.where(afterCursor('refunds', page.cursor ?? '')))
    .orderBy('refunds.created_at', 'desc')
    .orderBy('refunds.id', 'desc')
    .limit(page.limit + 1)
    .execute();
  return pageOf('refunds', rows, page.limit);
}

/** Page `page` of the app's refunds (the portal's numbered pages), newest first, with the total. */
export async function refundPage(
  db: Db,
  appId: string,
  filter: Pick<RefundFilter, 'invoiceId'>,
  page: { page: number; perPage: number },
): Promise<{ rows: RefundRow[]; total: number }> {
  const invoiceId = filter.invoiceId;
  const [rows, count] = await Promise.all([
    refundRows(db)
      .where('refunds.app_id', '=', appId)
      .$if(invoiceId !== undefined, (q) => q.where('refunds.invoice_id', '=', invoiceId ?? ''))
      .orderBy('refunds.created_at', 'desc')
      .orderBy('refunds.id', 'desc')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute(),
    db
      .selectFrom('refunds')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('app_id', '=', appId)
      .$if(invoiceId !== undefined, (q) => q.where('invoice_id', '=', invoiceId ?? ''))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
