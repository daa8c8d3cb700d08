import { notificationsApi } from './generated/notifications.gen';

notificationsApi.enhanceEndpoints({
  endpoints: {
    listNotifications: { providesTags: ['Notifications'] },
    markNotificationsRead: { invalidatesTags: ['Notifications'] },
  },
});

export {
  useListNotificationsQuery,
  useMarkNotificationsReadMutation,
} from './generated/notifications.gen';
export type { AccountEvent } from './generated/notifications.gen';
