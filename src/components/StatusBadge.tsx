import Badge from 'react-bootstrap/Badge';

interface StatusName {
  label: string;
  bg: string;
  /** Dark text, on a light colour. */
  text?: 'dark';
}

/** How each value of a status enum reads, and its Bootstrap colour. */
export type StatusNames<Status extends number | string> = Readonly<Record<Status, StatusName>>;

/**
 * A status as a badge. Its names table is typed by the field's generated enum, so a status the
 * contract adds fails to compile until it has a name.
 */
export function StatusBadge<Status extends number | string>({
  status,
  names,
}: {
  status: Status;
  names: StatusNames<Status>;
}) {
  // A value newer than this build's contract shows as its number.
  const name: StatusName | undefined = names[status];
  const { label, bg, text } = name ?? { label: String(status), bg: 'secondary' };
  return (
    <Badge bg={bg} text={text} className="text-wrap">
      {label}
    </Badge>
  );
}
