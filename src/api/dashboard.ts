import { dashboardApi } from './generated/dashboard.gen';

dashboardApi.enhanceEndpoints({
  endpoints: { getDashboard: { providesTags: ['Dashboard'] } },
});

export { useGetDashboardQuery } from './generated/dashboard.gen';
export type { DashboardData } from './generated/dashboard.gen';
