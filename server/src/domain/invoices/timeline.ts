import type { Db } from '../../db/connection';
import type { components } from '../../generated/gateway.gen';
import type { Unmoded } from '../livemode';
import { eventsOfResources, type DeliveryRow } from '../webhooks/portal';
import type { InvoiceEventType, RefundEventType } from '../webhooks/events';

type Invoice = Unmoded<components['schemas']['Invoice']>;
type InvoiceEvent = components['schemas']['InvoiceEvent'];
type RefundEvent = components['schemas']['RefundEvent'];

// An invoice's timeline: its events and its refunds' in the app's outbox (webhook_events,
// written in the transaction of each change, so every status it reached, every payment it saw
// and every step of a refund is there, in order), each with the status and flags its body
// reported, a refund's amount, and its webhook deliveries.

export interface TimelineEntry {
  eventId: string;
  event: InvoiceEventType | RefundEventType;
  at: string;
  /** The status the event moved the invoice to (new on creation); null for a payment seen. */
  status: Invoice['status'] | null;
  /** The flags its body reported (after the change it records); none once pruned. */
  exceptions: Invoice['exceptions'];
  /** A refund's amount and method (`5 USDT-BEP20`); null for the invoice's own events. */
  detail: string | null;
  deliveries: DeliveryRow[];
}

/**
 * The status each event announces. A change's events share one body (the invoice after the
 * whole change: a payment that settles at once sends processing and settled with the settled
 * invoice), so the status is the event's own, not its body's.
 */
const STATUS_OF: Record<InvoiceEventType, Invoice['status'] | null> = {
  'invoice.created': 'new',
  'invoice.payment_received': null,
  'invoice.processing': 'processing',
  'invoice.settled': 'settled',
  'invoice.expired': 'expired',
  'invoice.invalid': 'invalid',
};

const isInvoiceEvent = (type: string): type is InvoiceEventType => type in STATUS_OF;

const REFUND_EVENTS: readonly string[] = [
  'refund.created',
  'refund.claimed',
  'refund.completed',
  'refund.reorged',
  'refund.failed',
  'refund.cancelled',
  'refund.expired',
] satisfies RefundEventType[];
const isRefundEvent = (type: string): type is RefundEventType => REFUND_EVENTS.includes(type);

/** The timeline of invoice `invoiceId` of `appId`, oldest first (the caller owns the app). */
export async function invoiceTimeline(
  db: Db,
  appId: string,
  invoiceId: string,
): Promise<TimelineEntry[]> {
  const refunds = await db
    .selectFrom('refunds')
    .select('id')
    .where('invoice_id', '=', invoiceId)
    .where('app_id', '=', appId)
    .execute();
  const events = await eventsOfResources(db, appId, [invoiceId, ...refunds.map((r) => r.id)]);
  return events.flatMap((e): TimelineEntry[] => {
    const at = new Date(e.createdAt).toISOString();
    if (isRefundEvent(e.type)) {
      const refund = e.body === '' ? null : (JSON.parse(e.body) as RefundEvent).data;
      return [
        {
          eventId: e.id,
          event: e.type,
          at,
          status: null,
          exceptions: [],
          detail: refund ? `${refund.amount} ${refund.method}` : null,
          deliveries: e.deliveries,
        },
      ];
    }
    if (!isInvoiceEvent(e.type)) return [];
    // The body is the envelope exactly as signed.
    const sent = e.body === '' ? null : (JSON.parse(e.body) as InvoiceEvent).data;
    return [
      {
        eventId: e.id,
        event: e.type,
        at,
        status: STATUS_OF[e.type],
        exceptions: sent?.exceptions ?? [],
        detail: null,
        deliveries: e.deliveries,
      },
    ];
  });
}
