import { useMemo, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Nav from 'react-bootstrap/Nav';
import Row from 'react-bootstrap/Row';
import { Link, useSearchParams } from 'react-router-dom';
import type { AppDetails } from '../../../api/apps';
import {
  enhancedInvoicesApi,
  type InvoiceStatus,
  type ListAppInvoicesApiArg,
} from '../../../api/invoices';
import { usePagedQuery } from '../../../components/usePagedQuery';
import { INVOICE_STATUS } from '../invoiceRules';
import { CreateInvoiceModal } from './CreateInvoiceModal';
import { invoiceColumns } from './InvoiceColumns';
import { InvoiceDetails } from './InvoiceDetails';
import { ListTable } from './ListTable';
import { PaymentLinkDetails } from './PaymentLinkDetails';
import { PaymentLinksList } from './PaymentLinksList';
import { RefundsList } from './RefundsList';
import { LIVE } from './usePagedList';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';
import { useT } from '../../../i18n/i18n';

const STATUSES = Object.keys(INVOICE_STATUS) as InvoiceStatus[];

interface Filters {
  status: InvoiceStatus | '';
  orderId: string;
  /** Dates (yyyy-mm-dd), in the browser's time zone; `to` is the last day included. */
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { status: '', orderId: '', from: '', to: '' };

/** A day's start in the browser's time zone, as the API's instant. */
const dayStart = (date: string, plusDays = 0) => {
  const day = new Date(`${date}T00:00:00`);
  day.setDate(day.getDate() + plusDays);
  return day.toISOString();
};

/** The list's arguments for `filters` (empty ones left out). */
function listArg(appId: string, filters: Filters): ListAppInvoicesApiArg {
  return {
    id: appId,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.orderId.trim() ? { orderId: filters.orderId.trim() } : {}),
    ...(filters.from ? { from: dayStart(filters.from) } : {}),
    ...(filters.to ? { to: dayStart(filters.to, 1) } : {}),
  };
}

/**
 * The Invoices tab (an extension of the spec's app detail): the app's invoices, its payment
 * links and its refunds, one at a time under a small nav, or one invoice's or link's details
 * when the URL names it (?invoice=, ?link=), with Create Invoice and Create payment link.
 */
export function InvoicesTab({ details }: { details: AppDetails }) {
  const t = useT();
  const appId = details.app_data.id;
  const [params, setParams] = useSearchParams();
  const invoice = params.get('invoice');
  const link = params.get('link');
  const view = params.get('view');
  const links = view === 'links';
  const refunds = view === 'refunds';
  const here = (on: boolean) => ({
    active: on,
    'aria-current': on ? ('page' as const) : undefined,
  });
  const openInvoice = (id: string | null) =>
    setParams(id ? { invoice: id } : {}, { replace: false });
  const openLink = (id: string | null) =>
    setParams(id ? { view: 'links', link: id } : { view: 'links' }, { replace: false });
  // Keyed by what they show: when the URL names another invoice or link, its details start with
  // their own loading state, never with the one before on screen.
  if (invoice) {
    return (
      <InvoiceDetails
        key={invoice}
        appId={appId}
        invoiceId={invoice}
        testMode={!details.app_data.livemode}
        onBack={() => openInvoice(null)}
      />
    );
  }
  if (link) {
    return (
      <PaymentLinkDetails
        key={link}
        appId={appId}
        linkId={link}
        onBack={() => openLink(null)}
        onOpenInvoice={openInvoice}
      />
    );
  }
  return (
    <>
      <Nav as="nav" variant="underline" className="invoices-nav mb-3" aria-label={t('inv.nav')}>
        <Nav.Item>
          <Nav.Link as={Link} to="?" {...here(!links && !refunds)}>
            {t('tab.invoices')}
          </Nav.Link>
        </Nav.Item>
        <Nav.Item>
          <Nav.Link as={Link} to="?view=links" {...here(links)}>
            {t('inv.links')}
          </Nav.Link>
        </Nav.Item>
        <Nav.Item>
          <Nav.Link as={Link} to="?view=refunds" {...here(refunds)}>
            {t('inv.refunds')}
          </Nav.Link>
        </Nav.Item>
      </Nav>
      {links && <PaymentLinksList details={details} onOpen={openLink} />}
      {refunds && <RefundsList appId={appId} onOpenInvoice={openInvoice} />}
      {!links && !refunds && <InvoiceList appId={appId} onOpen={openInvoice} />}
    </>
  );
}

function InvoiceList({ appId, onOpen }: { appId: string; onOpen: (id: string) => void }) {
  const t = useT();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [creating, setCreating] = useState(false);
  const first = useMemo(() => listArg(appId, filters), [appId, filters]);
  const { data, ...list } = usePagedQuery(
    enhancedInvoicesApi.endpoints.listAppInvoices,
    first,
    (_page, page) => ({ ...first, page }),
    LIVE,
  );

  const columns = invoiceColumns(t, onOpen);

  return (
    <>
      <div className="d-flex justify-content-end mb-3">
        <Button onClick={() => setCreating(true)}>{t('inv.create')}</Button>
      </div>
      <InvoiceFilters onApply={setFilters} />
      <div className="d-flex flex-wrap justify-content-end column-gap-2">
        <DownloadCsvButton kind="invoices" appId={appId} filters={first} />
        <DownloadCsvButton
          kind="payments"
          appId={appId}
          filters={{ from: first.from, to: first.to }}
          label="csv.downloadPayments"
        />
      </div>
      <ListTable
        caption={t('tab.invoices')}
        columns={columns}
        rowKey={(invoice) => invoice.id}
        page={data?.data}
        {...list}
      />
      <CreateInvoiceModal
        appId={appId}
        show={creating}
        onHide={() => setCreating(false)}
        onView={onOpen}
      />
    </>
  );
}

function InvoiceFilters({ onApply }: { onApply: (filters: Filters) => void }) {
  const t = useT();
  const [typed, setTyped] = useState<Filters>(NO_FILTERS);
  const set = (key: keyof Filters) => (event: { target: { value: string } }) =>
    setTyped((current) => ({ ...current, [key]: event.target.value }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply(typed);
  };
  return (
    <Form className="invoice-filters mb-3" onSubmit={apply} aria-label={t('inv.filter')}>
      <Row className="g-2 align-items-end">
        <Col xs={6} md={3}>
          <Form.Group controlId="invoice-filter-status">
            <Form.Label className="small mb-1">{t('wallet.status')}</Form.Label>
            <Form.Select size="sm" value={typed.status} onChange={set('status')}>
              <option value="">{t('inv.all')}</option>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {INVOICE_STATUS[status].label}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        <Col xs={6} md={3}>
          <Form.Group controlId="invoice-filter-order">
            <Form.Label className="small mb-1">{t('inv.orderId')}</Form.Label>
            <Form.Control
              size="sm"
              value={typed.orderId}
              onChange={set('orderId')}
              maxLength={128}
            />
          </Form.Group>
        </Col>
        <Col xs={6} md={2}>
          <Form.Group controlId="invoice-filter-from">
            <Form.Label className="small mb-1">{t('inv.from')}</Form.Label>
            <Form.Control size="sm" type="date" value={typed.from} onChange={set('from')} />
          </Form.Group>
        </Col>
        <Col xs={6} md={2}>
          <Form.Group controlId="invoice-filter-to">
            <Form.Label className="small mb-1">{t('inv.to')}</Form.Label>
            <Form.Control size="sm" type="date" value={typed.to} onChange={set('to')} />
          </Form.Group>
        </Col>
        {/* The buttons go one under the other when their words are too long for the column. */}
        <Col xs={12} md={2} className="d-flex flex-wrap gap-2">
          <Button type="submit" size="sm" variant="outline-primary">
            {t('inv.apply')}
          </Button>
          <Button
            size="sm"
            variant="outline-secondary"
            onClick={() => {
              setTyped(NO_FILTERS);
              onApply(NO_FILTERS);
            }}
          >
            {t('inv.reset')}
          </Button>
        </Col>
      </Row>
    </Form>
  );
}
