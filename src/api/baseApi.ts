import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

/**
 * The one empty API every generated endpoint file injects into, with every cache tag the
 * enhancements in src/api/<tag>.ts provide and invalidate (the codegen emits none).
 */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: [
    'App',
    'AppKeys',
    'AppList',
    'Authentication',
    'Balance',
    'Dashboard',
    'DocTypes',
    'History',
    'Invoice',
    'Notifications',
    'Packages',
    'PaymentLink',
    'Profile',
    'Refund',
    'Subscription',
    'Wallet',
    'Webhook',
  ],
  endpoints: () => ({}),
});
