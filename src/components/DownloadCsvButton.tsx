import {
  useCreateExportLinkMutation,
  type CreateExportLinkRequest,
  type ExportKind,
} from '../api/exports';
import { BusyButton } from './BusyButton';
import { useT, type MessageKey } from '../i18n/i18n';
import { followDownloadLink } from '../lib/followLink';

interface Props {
  /** The list: an app's (with `appId`) or the account's own. */
  kind: ExportKind;
  appId?: string;
  /** The list's filters in force, so the file holds exactly the rows the list selects. */
  filters?: Pick<CreateExportLinkRequest, 'from' | 'to' | 'status'> & { orderId?: string };
  /** Its words, when the file is not the list's own (Download CSV). */
  label?: MessageKey;
}

/**
 * A list's Download CSV: asks the server for a signed link with the session, then has the
 * browser follow it, so the file streams straight to the download (no session on the link,
 * none needed for a minute; docs/decisions.md, Exports).
 */
export function DownloadCsvButton({ kind, appId, filters, label = 'csv.download' }: Props) {
  const t = useT();
  const [createLink, { isLoading }] = useCreateExportLinkMutation();

  async function download() {
    const { data } = await createLink({
      kind,
      createExportLinkRequest: {
        ...(appId === undefined ? {} : { app_id: appId }),
        ...(filters?.from === undefined ? {} : { from: filters.from }),
        ...(filters?.to === undefined ? {} : { to: filters.to }),
        ...(filters?.status === undefined ? {} : { status: filters.status }),
        ...(filters?.orderId === undefined ? {} : { order_id: filters.orderId }),
      },
    }).unwrap();
    followDownloadLink(data.url);
  }

  return (
    <div className="d-flex justify-content-end mb-2">
      <BusyButton
        busy={isLoading}
        variant="outline-secondary"
        size="sm"
        // A refusal is already toasted (app/middleware/apiFeedback.ts).
        onClick={() => void download().catch(() => undefined)}
      >
        {t(label)}
      </BusyButton>
    </div>
  );
}
