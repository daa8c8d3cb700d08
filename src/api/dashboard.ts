import { dashboardApi } from './generated/dashboard.gen';

export const enhancedDashboardApi = dashboardApi.enhanceEndpoints({
  endpoints: { getDashboard: { providesTags: ['Dashboard'] } },
});

export { useGetDashboardQuery } from './generated/dashboard.gen';
