/** Page links around the current page: up to `span` either side, three by default. */
export function pageWindow(current: number, last: number, span = 3): number[] {
  const start = Math.max(1, current - span);
  const end = Math.min(last, current + span);
  const pages: number[] = [];
  for (let page = start; page <= end; page += 1) pages.push(page);
  return pages;
}

/**
 * The spec pages a list by taking its first_page_url and replacing the page number. This returns
 * the query parameters of that URL with `page` set, so the generated hook can be called with them.
 */
export function pageQueryFromUrl(firstPageUrl: string, page: number): Record<string, string> {
  const url = new URL(firstPageUrl, 'http://placeholder.invalid');
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, key) => {
    query[key] = value;
  });
  const pageKey = Object.keys(query).find((key) => /^\d+$/.test(query[key] ?? '')) ?? 'page';
  query[pageKey] = String(page);
  return query;
}
