// One source for client and server: a pure module both import (no React, browser or Node APIs).

/** The envelope of a paged list (Laravel's paginator, as the portal's lists return it). */
export interface Page<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  from: number | null;
  to: number | null;
  total: number;
  first_page_url: string;
}

/** Page `page` of `total` rows, `perPage` a page, holding `rows`. */
export function pageEnvelope<T>(
  rows: T[],
  total: number,
  page: number,
  perPage: number,
  firstPageUrl: string,
): Page<T> {
  const from = rows.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    data: rows,
    current_page: page,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    per_page: perPage,
    from,
    to: from === null ? null : from + rows.length - 1,
    total,
    first_page_url: firstPageUrl,
  };
}
