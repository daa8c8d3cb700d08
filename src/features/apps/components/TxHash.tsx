import { explorerTxUrl } from '../../../lib/chains';
import { shorten } from '../../../lib/mask';

/** A transaction hash shortened, linking to the chain's explorer; '----' when not known yet. */
export function TxHash({ chainId, hash }: { chainId: number; hash: string | null }) {
  if (!hash) return <span className="text-muted">----</span>;
  const url = explorerTxUrl(chainId, hash);
  const text = shorten(hash, 6, 6);
  if (!url) return <code title={hash}>{text}</code>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" title={hash} className="font-monospace">
      {text}
    </a>
  );
}
