import type { ReactNode } from 'react';

/** The class of every screen's h1, signed-in and public alike (styles/main.scss). */
const PAGE_TITLE_CLASS = 'page-title';

interface Props {
  children: ReactNode;
  /** A line under the title saying what the screen is for. */
  lead?: ReactNode;
  /** Buttons or links at the end of the title row (they wrap under it on phones). */
  actions?: ReactNode;
}

/** A signed-in screen's heading: the one page-title style, its lead line and its actions. */
export function PageTitle({ children, lead, actions }: Props) {
  return (
    <div className="page-header">
      <div className="page-header__text">
        <h1 className={PAGE_TITLE_CLASS}>{children}</h1>
        {lead && <p className="page-header__lead">{lead}</p>}
      </div>
      {actions}
    </div>
  );
}
