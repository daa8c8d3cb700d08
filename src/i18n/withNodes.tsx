import { Fragment, type ReactNode } from 'react';
import type { MessageKey, Translate } from './i18n';

/** Stands for a node in a message while it is split (an invisible separator). */
const MARK = '\u2063';
const MARKED = new RegExp(`${MARK}(\\d+)${MARK}`);

/**
 * A message with React nodes where it names them ({packages} a link, {amount} in bold): the
 * catalogue holds no markup, and each language puts the values where its grammar wants them.
 */
export function withNodes(
  t: Translate,
  key: MessageKey,
  values: Record<string, string | number>,
  nodes: Record<string, ReactNode>,
): ReactNode {
  const names = Object.keys(nodes);
  const marks = Object.fromEntries(names.map((name, index) => [name, `${MARK}${index}${MARK}`]));
  const parts = t(key, { ...values, ...marks }).split(MARKED);
  // split() with a group keeps each node's index at the odd places, between the texts.
  return parts.map((part, index) =>
    index % 2 === 0 ? part : <Fragment key={index}>{nodes[names[Number(part)] ?? '']}</Fragment>,
  );
}
