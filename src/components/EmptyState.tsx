/** The one empty-list text of the spec. */
export const EMPTY_TEXT = 'No record Found';

export function EmptyState({ colSpan }: { colSpan?: number }) {
  if (colSpan) {
    return (
      <tr>
        <td colSpan={colSpan} className="text-center text-muted py-4">
          {EMPTY_TEXT}
        </td>
      </tr>
    );
  }
  return <p className="text-center text-muted py-4 mb-0">{EMPTY_TEXT}</p>;
}
