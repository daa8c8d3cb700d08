import { useState } from 'react';
import { PAGE_FAILED_MESSAGE } from '../api/errors';
import { explainsOwnFailure } from '../app/middleware/apiFeedback';
import { toast } from './toast';

/** The two generated hooks of one paged read (an RTK Query endpoint's useQuery and useLazyQuery). */
/** How a list keeps itself current (RTK Query's subscription options). */
export interface Freshness {
  pollingInterval?: number;
  skipPollingIfUnfocused?: boolean;
  refetchOnMountOrArgChange?: boolean;
}

interface PagedEndpoint<Arg, Result> {
  useQuery: (
    arg: Arg,
    options?: Freshness,
  ) => {
    data?: Result;
    isLoading: boolean;
    isFetching: boolean;
    isError: boolean;
    refetch: () => unknown;
  };
  useLazyQuery: () => readonly [
    (
      arg: Arg,
      preferCacheValue?: boolean,
    ) => PromiseLike<unknown> & {
      requestId: string;
      unwrap: () => Promise<Result>;
    },
    { isFetching: boolean },
    ...unknown[],
  ];
}

/**
 * A paged read. It starts at `first` (a constant or a memoised value: a new one starts over).
 * Another page is fetched first and shown only once it arrived, so a failed page change keeps
 * the rows on screen and says 'Request failed please try again'.
 */
export function usePagedQuery<Arg, Result>(
  endpoint: PagedEndpoint<Arg, Result>,
  first: Arg,
  argOfPage: (data: Result, page: number) => Arg,
  freshness: Freshness = {},
) {
  const [chosen, setChosen] = useState({ first, arg: first });
  const query = endpoint.useQuery(chosen.first === first ? chosen.arg : first, freshness);
  const [fetchPage, pageRequest] = endpoint.useLazyQuery();

  const onPageChange = async (page: number) => {
    if (!query.data) return;
    const next = argOfPage(query.data, page);
    try {
      await explainsOwnFailure(fetchPage(next, true)).unwrap();
      setChosen({ first, arg: next });
    } catch {
      toast.error(PAGE_FAILED_MESSAGE, { toastId: PAGE_FAILED_MESSAGE });
    }
  };

  return {
    data: query.data,
    isLoading: query.isLoading,
    isError: query.isError,
    refetch: query.refetch,
    /** A page is on its way, the shown one or the next. */
    isFetching: query.isFetching || pageRequest.isFetching,
    /** The next page is on its way: the page links wait for it. */
    isChangingPage: pageRequest.isFetching,
    onPageChange,
  };
}
