import { useState } from 'react';
import { explainsOwnFailure } from '../../../app/middleware/apiFeedback';
import { toast } from '../../../components/toast';
import {
  useGetAppDetailsQuery,
  useLazyGetAppDetailsQuery,
  type AppDetails,
  type GetAppDetailsApiArg,
} from '../../../api/apps';
import { PAGE_FAILED_MESSAGE } from '../../../api/errors';
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
 * One paged list of the app detail. Page 1 shares the screen's main getAppDetails entry; another
 * page is fetched first and shown only once it arrived, so a failed page change keeps the rows on
 * screen and says 'Request failed please try again'.
 */
export function usePagedList<L extends ListName>(appId: string, list: L) {
  const [arg, setArg] = useState<GetAppDetailsApiArg>({ id: appId });
  const current = arg.id === appId ? arg : { id: appId };
  const query = useGetAppDetailsQuery(current);
  const [fetchPage, pageRequest] = useLazyGetAppDetailsQuery();
  const rows: AppDetails[L] | undefined = query.data?.data[list];

  const onPageChange = async (page: number) => {
    if (!rows) return;
    const next = pageArg(appId, rows.first_page_url, page);
    try {
      await explainsOwnFailure(fetchPage(next, true)).unwrap();
      setArg(next);
    } catch {
      toast.error(PAGE_FAILED_MESSAGE, { toastId: PAGE_FAILED_MESSAGE });
    }
  };

  return {
    page: rows,
    isLoading: query.isLoading,
    isFetching: query.isFetching || pageRequest.isFetching,
    onPageChange,
  };
}
