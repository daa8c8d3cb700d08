/** Every route of both route tables, in one place. */
export const paths = {
  root: '/',
  login: '/login',
  register: '/register',
  reset: '/reset',
  dashboard: '/app/dashboard',
  allApps: '/app/all-app',
  kyc: '/app/kyc',
  profile: '/app/profile',
  history: '/app/history',
  subscriptions: '/app/subscriptions',
  wallet: '/app/wallet',
  authentication: '/app/authentication',
  usages: '/app/usages',
  createApp: '/app/create-app',
  myApp: (id: string, tab?: string) =>
    `/app/my-app/${encodeURIComponent(id)}${tab ? `/${tab}` : ''}`,
  support: '/app/support',
  changePassword: '/app/changepassword',
} as const;
