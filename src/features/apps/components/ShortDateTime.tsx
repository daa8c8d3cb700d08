import moment from 'moment';

/** A table cell's date-time: the date and the time each kept whole, wrapping between them. */
export function ShortDateTime({ value }: { value: string }) {
  const at = moment(value);
  return (
    <time dateTime={value}>
      <span className="text-nowrap">{at.format('DD-MM-YYYY')}</span>{' '}
      <span className="text-nowrap">{at.format('HH:mm')}</span>
    </time>
  );
}
