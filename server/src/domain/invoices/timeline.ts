import type { Db } from '../../db/connection';
import type { components } from '../../generated/gateway.gen';
import { eventsOfResource, type DeliveryRow } from '../webhooks/portal';
import type { InvoiceEventType } from '../webhooks/events';

type Invoice = components['schemas']['Invoice'];
type InvoiceEvent = components['schemas']['InvoiceEvent'];

// An invoice's timeline: its events in the app's outbox (webhook_events, written in the
// transaction of each change, so every status it reached and every payment it saw is there, in
// order), each with the status and flags its body reported and its webhook deliveries.

export interface TimelineEntry {
  eventId: string;
  event: InvoiceEventType;
  at: string;
  /** The status the event moved the invoice to (new on creation); null for a payment seen. */
  status: Invoice['status'] | null;
  /** The flags its body reported (after the change it records); none once pruned. */
  exceptions: Invoice['exceptions'];
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

/** The timeline of invoice `invoiceId` of `appId`, oldest first (the caller owns the app). */
export async function invoiceTimeline(
  db: Db,
  appId: string,
  invoiceId: string,
): Promise<TimelineEntry[]> {
  const events = await eventsOfResource(db, appId, invoiceId);
  return events.flatMap((e): TimelineEntry[] => {
    if (!isInvoiceEvent(e.type)) return [];
    // The body is the envelope exactly as signed.
    const sent = e.body === '' ? null : (JSON.parse(e.body) as InvoiceEvent).data;
    return [
      {
        eventId: e.id,
        event: e.type,
        at: new Date(e.createdAt).toISOString(),
        status: STATUS_OF[e.type],
        exceptions: sent?.exceptions ?? [],
        deliveries: e.deliveries,
      },
    ];
  });
}
