import type { ReactNode } from 'react';
import { useT } from '../../../i18n/i18n';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function parse(text: string): { ok: true; value: Json } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as Json };
  } catch {
    return { ok: false };
  }
}

function Value({ value }: { value: Json }): ReactNode {
  if (value === null) return <span className="json-null">null</span>;
  if (typeof value === 'string') return <span className="json-string">&quot;{value}&quot;</span>;
  if (typeof value === 'number') return <span className="json-number">{value}</span>;
  if (typeof value === 'boolean') return <span className="json-boolean">{String(value)}</span>;
  const entries: [string | null, Json][] = Array.isArray(value)
    ? value.map((item) => [null, item])
    : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return `${open}${close}`;
  return (
    <>
      {open}
      <ul className="json-children">
        {entries.map(([key, item], index) => (
          <li key={key ?? index}>
            {key !== null && <span className="json-key">&quot;{key}&quot;</span>}
            {key !== null && ': '}
            <Value value={item} />
            {index < entries.length - 1 && ','}
          </li>
        ))}
      </ul>
      {close}
    </>
  );
}

/**
 * The IPN payload as indented, coloured JSON; text that is not JSON is shown as it is. A long
 * payload scrolls inside its box, so the box is a named region a keyboard can focus and scroll.
 */
export function JsonView({ text }: { text: string }) {
  const t = useT();
  const parsed = parse(text);
  return (
    <div
      className="json-view font-monospace small"
      role="region"
      aria-label={t('json.label')}
      tabIndex={0}
    >
      {parsed.ok ? <Value value={parsed.value} /> : <pre className="mb-0">{text}</pre>}
    </div>
  );
}
