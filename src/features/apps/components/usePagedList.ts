import { useMemo } from 'react';
import { enhancedAppsApi, type GetAppDetailsApiArg } from '../../../api/apps';
import { usePagedQuery } from '../../../components/usePagedQuery';
import { pageQueryFromUrl } from '../../../lib/pagination';
import { LIST_ARGS, type ListName } from '../appRules';

/** Hook arguments for page `page` of `list`: its first_page_url with the page number replaced. */
export function pageArg(appId: string, firstPageUrl: string, page: number): GetAppDetailsApiArg {
  const arg: GetAppDetailsApiArg = { id: appId };
  for (const [key, value] of Object.entries(pageQueryFromUrl(firstPageUrl, page))) {
    if (key in LIST_ARGS) arg[LIST_ARGS[key as ListName]] = Number(value);
  }
  return arg;
}

/**
 * The app's lists change without the merchant doing anything (the gateway opens accounts, the
 * chain watcher moves deposits and invoices): fetched again when a list is shown, then every few
 * seconds while the tab is in view.
 */
export const LIVE = {
  refetchOnMountOrArgChange: true,
  pollingInterval: 5_000,
  skipPollingIfUnfocused: true,
} as const;

/** One paged list of the app detail; page 1 shares the screen's main getAppDetails entry. */
export function usePagedList<L extends ListName>(appId: string, list: L) {
  const first = useMemo(() => ({ id: appId }), [appId]);
  const { data, ...paged } = usePagedQuery(
    enhancedAppsApi.endpoints.getAppDetails,
    first,
    (details, page) => pageArg(appId, details.data[list].first_page_url, page),
    LIVE,
  );
  return { ...paged, page: data?.data[list] };
}
