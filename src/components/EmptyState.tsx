import { useT } from '../i18n/i18n';

/** The spec's one empty-list text, 'No record Found' (common.noRecord). */
export function EmptyState({ colSpan }: { colSpan?: number }) {
  const t = useT();
  if (colSpan) {
    return (
      <tr>
        <td colSpan={colSpan} className="text-center text-muted py-4">
          {t('common.noRecord')}
        </td>
      </tr>
    );
  }
  return <p className="text-center text-muted py-4 mb-0">{t('common.noRecord')}</p>;
}
