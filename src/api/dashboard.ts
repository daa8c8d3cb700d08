import { dashboardApi } from './generated/dashboard.gen';

dashboardApi.enhanceEndpoints({
  addTagTypes: ['Dashboard'],
  endpoints: { getDashboard: { providesTags: ['Dashboard'] } },
});

export { useGetDashboardQuery } from './generated/dashboard.gen';
