import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Modal from 'react-bootstrap/Modal';
import {
  enhancedPaymentLinksApi,
  useDeactivateAppPaymentLinkMutation,
} from '../../../api/paymentLinks';
import { BusyButton } from '../../../components/BusyButton';
import { DateTime } from '../../../components/DateTime';
import { QueryState } from '../../../components/QueryState';
import { TitledModal } from '../../../components/TitledModal';
import { usePagedQuery } from '../../../components/usePagedQuery';
import { linkAmount, linkUses } from '../paymentLinkRules';
import { invoiceColumns } from './InvoiceColumns';
import { ListTable } from './ListTable';
import { CopyLinkButton, PaymentLinkBadge } from './PaymentLinkParts';
import { LIVE } from './usePagedList';
import { useT } from '../../../i18n/i18n';

/** One payment link: its page's URL, its settings, its totals, Deactivate, and its invoices. */
export function PaymentLinkDetails({
  appId,
  linkId,
  onBack,
  onOpenInvoice,
}: {
  appId: string;
  linkId: string;
  onBack: () => void;
  onOpenInvoice: (id: string) => void;
}) {
  const t = useT();
  const first = useMemo(() => ({ id: appId, linkId }), [appId, linkId]);
  // Polled as the lists are: shoppers' invoices and payments arrive without a reload.
  const { data, ...query } = usePagedQuery(
    enhancedPaymentLinksApi.endpoints.getAppPaymentLink,
    first,
    (_page, page) => ({ ...first, page }),
    LIVE,
  );
  const [confirming, setConfirming] = useState(false);

  return (
    <>
      <Button variant="link" className="px-0 mb-2" onClick={onBack}>
        &larr; {t('link.back')}
      </Button>
      <QueryState query={{ ...query, data }} what={t('link.what')}>
        {({ data: { link, invoices } }) => (
          <>
            <Card className="mb-3">
              <Card.Body>
                <h3 className="h6 text-break">{link.title}</h3>
                <dl className="row mb-0 details-list">
                  <dt className="col-sm-4">{t('wallet.status')}</dt>
                  <dd className="col-sm-8">
                    <PaymentLinkBadge link={link} />
                  </dd>
                  <dt className="col-sm-4">{t('link.link')}</dt>
                  <dd className="col-sm-8">
                    <span className="text-break small d-block mb-1">{link.url}</span>
                    <span className="d-flex gap-2">
                      <CopyLinkButton url={link.url} />
                      <a
                        className="btn btn-outline-secondary btn-sm"
                        href={link.url}
                        target="_blank"
                        rel="noopener noreferrer"
                      >
                        {t('link.open')}
                      </a>
                    </span>
                  </dd>
                  <dt className="col-sm-4">{t('dashboard.amount')}</dt>
                  <dd className="col-sm-8">{linkAmount(link)}</dd>
                  <dt className="col-sm-4">{t('invDetail.description')}</dt>
                  <dd className="col-sm-8 text-break">{link.description ?? '----'}</dd>
                  <dt className="col-sm-4">{t('link.methods')}</dt>
                  <dd className="col-sm-8">
                    {link.methods === null ? t('link.everyMethod') : link.methods.join(', ')}
                  </dd>
                  <dt className="col-sm-4">{t('inv.expires')}</dt>
                  <dd className="col-sm-8">
                    {link.expires_at === null ? (
                      t('link.never')
                    ) : (
                      <DateTime value={link.expires_at} />
                    )}
                  </dd>
                  <dt className="col-sm-4">{t('link.maxUses')}</dt>
                  <dd className="col-sm-8">{link.max_uses ?? t('link.noLimit')}</dd>
                  <dt className="col-sm-4">{t('link.redirect')}</dt>
                  <dd className="col-sm-8 text-break">{link.redirect_url ?? '----'}</dd>
                  <dt className="col-sm-4">{t('inv.created')}</dt>
                  <dd className="col-sm-8">
                    <DateTime value={link.created_at} />
                  </dd>
                </dl>
                {link.status !== 'deactivated' && (
                  <div className="mt-3">
                    <Button variant="outline-danger" onClick={() => setConfirming(true)}>
                      {t('link.deactivate')}
                    </Button>
                  </div>
                )}
              </Card.Body>
            </Card>

            <Card className="mb-3">
              <Card.Body>
                <h3 className="h6">{t('link.totals')}</h3>
                <dl className="row mb-0 details-list" aria-label={t('link.totals')}>
                  <dt className="col-sm-4">{t('tab.invoices')}</dt>
                  <dd className="col-sm-8">{link.totals.invoices}</dd>
                  <dt className="col-sm-4">{t('link.paidInvoices')}</dt>
                  <dd className="col-sm-8">{link.totals.paid_invoices}</dd>
                  <dt className="col-sm-4">{t('link.amountPaid')}</dt>
                  <dd className="col-sm-8">
                    {link.totals.amount_paid} {link.currency}
                  </dd>
                  <dt className="col-sm-4">{t('link.uses')}</dt>
                  <dd className="col-sm-8">{linkUses(link)}</dd>
                </dl>
              </Card.Body>
            </Card>

            <h3 className="h6">{t('tab.invoices')}</h3>
            <ListTable
              caption={t('link.invoices')}
              columns={invoiceColumns(t, onOpenInvoice)}
              rowKey={(invoice) => invoice.id}
              page={invoices}
              {...query}
            />

            <DeactivateModal
              appId={appId}
              linkId={link.id}
              show={confirming}
              onHide={() => setConfirming(false)}
            />
          </>
        )}
      </QueryState>
    </>
  );
}

function DeactivateModal({
  appId,
  linkId,
  show,
  onHide,
}: {
  appId: string;
  linkId: string;
  show: boolean;
  onHide: () => void;
}) {
  const t = useT();
  const [deactivate, { isLoading }] = useDeactivateAppPaymentLinkMutation();
  const confirm = async () => {
    try {
      await deactivate({ id: appId, linkId }).unwrap();
      onHide();
    } catch {
      // The refusal is a toast (the API's feedback); the dialog stays open to try again.
    }
  };
  return (
    <TitledModal show={show} onHide={onHide} title={t('link.deactivateTitle')}>
      <Modal.Body>
        <p className="mb-0">{t('link.deactivateBody')}</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>
          {t('common.cancel')}
        </Button>
        <BusyButton variant="danger" busy={isLoading} onClick={() => void confirm()}>
          {t('link.deactivate')}
        </BusyButton>
      </Modal.Footer>
    </TitledModal>
  );
}
