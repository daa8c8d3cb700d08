import type { ReactNode } from 'react';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Popover from 'react-bootstrap/Popover';

function InfoIcon() {
  return (
    <svg width={18} height={18} viewBox="0 0 24 24" fill="none" aria-hidden focusable={false}>
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeWidth="1.8" />
      <path d="M12 11v6M12 7.5v.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

interface Props {
  id: string;
  /** Names the button for screen readers and heads the popover. */
  title: string;
  children: ReactNode;
}

/** An (i) button that opens a popover on click; a click elsewhere closes it. */
export function InfoPopover({ id, title, children }: Props) {
  return (
    <OverlayTrigger
      trigger="click"
      rootClose
      placement="bottom"
      overlay={
        <Popover id={id}>
          <Popover.Header as="h3">{title}</Popover.Header>
          <Popover.Body>{children}</Popover.Body>
        </Popover>
      }
    >
      <button type="button" className="wallet-info" aria-label={title}>
        <InfoIcon />
      </button>
    </OverlayTrigger>
  );
}
