import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { AppDetails } from '../../../api/apps';
import { enhancedPaymentLinksApi, type PaymentLink } from '../../../api/paymentLinks';
import type { Column } from '../../../components/DataTable';
import { DateTime } from '../../../components/DateTime';
import { usePagedQuery } from '../../../components/usePagedQuery';
import { linkAmount, linkUses } from '../paymentLinkRules';
import { CreatePaymentLinkModal } from './CreatePaymentLinkModal';
import { ListTable } from './ListTable';
import { CopyLinkButton, PaymentLinkBadge } from './PaymentLinkParts';
import { LIVE } from './usePagedList';
import { DownloadCsvButton } from '../../../components/DownloadCsvButton';
import { useT } from '../../../i18n/i18n';

/** The app's payment links with their totals, newest first, and Create payment link. */
export function PaymentLinksList({
  details,
  onOpen,
}: {
  details: AppDetails;
  onOpen: (id: string) => void;
}) {
  const t = useT();
  const appId = details.app_data.id;
  const [creating, setCreating] = useState(false);
  const first = useMemo(() => ({ id: appId }), [appId]);
  const { data, ...list } = usePagedQuery(
    enhancedPaymentLinksApi.endpoints.listAppPaymentLinks,
    first,
    (_page, page) => ({ ...first, page }),
    LIVE,
  );

  const columns: Column<PaymentLink>[] = [
    {
      header: t('link.title'),
      className: 'text-break',
      cell: (link) => (
        <Button variant="link" className="p-0 text-start" onClick={() => onOpen(link.id)}>
          {link.title}
        </Button>
      ),
    },
    { header: t('dashboard.amount'), cell: (link) => linkAmount(link) },
    {
      header: t('wallet.status'),
      className: 'status-cell',
      cell: (link) => <PaymentLinkBadge link={link} />,
    },
    {
      header: t('link.uses'),
      numeric: true,
      className: 'text-nowrap',
      cell: (link) => linkUses(link),
    },
    {
      header: t('invDetail.paid'),
      numeric: true,
      className: 'text-nowrap',
      cell: (link) => `${link.totals.amount_paid} ${link.currency}`,
    },
    {
      header: t('inv.created'),
      className: 'time-cell',
      cell: (l) => <DateTime value={l.created_at} />,
    },
    {
      header: t('link.link'),
      cell: (link) => (
        <span className="d-flex gap-2 align-items-center">
          <span className="small text-break">{link.url}</span>
          <CopyLinkButton url={link.url} className="flex-shrink-0" />
        </span>
      ),
    },
  ];

  return (
    <>
      <div className="d-flex flex-wrap gap-2 justify-content-between align-items-center mb-3">
        <p className="small text-body-secondary mb-0">{t('link.intro')}</p>
        <Button onClick={() => setCreating(true)}>{t('link.create')}</Button>
      </div>
      <DownloadCsvButton kind="payment_links" appId={appId} />
      <ListTable
        caption={t('inv.links')}
        columns={columns}
        rowKey={(link) => link.id}
        page={data?.data}
        {...list}
      />
      <CreatePaymentLinkModal
        details={details}
        show={creating}
        onHide={() => setCreating(false)}
        onView={onOpen}
      />
    </>
  );
}
