import { createSlice, isFulfilled, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';
import type { LoginApiResponse, Profile } from '../../api/generated/auth.gen';
import type { App, CreateAppApiResponse, GetAppsApiResponse } from '../../api/generated/apps.gen';

/** The session values the spec keeps in browser storage (spec 000 section 3). */
export interface SessionState {
  name: string;
  email: string;
  avatar: string;
  username: string;
  currency: string;
  currency_type: string;
  authToken: string;
  profile: Profile | null;
  auth_type: string;
  apps: App[];
}

export const initialSessionState: SessionState = {
  name: '',
  email: '',
  avatar: '',
  username: '',
  currency: '',
  currency_type: '',
  authToken: '',
  profile: null,
  auth_type: '',
  apps: [],
};

/**
 * A successful answer of one endpoint, matched by its name: the endpoint objects would bring the
 * whole apps API into what /login loads (npm run size).
 */
const answerOf =
  <Payload>(endpointName: 'getApps' | 'createApp') =>
  (action: UnknownAction): action is PayloadAction<Payload> =>
    isFulfilled(action) &&
    (action.meta as { arg?: { endpointName?: string } }).arg?.endpointName === endpointName;

const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    signedIn: (_state, { payload }: PayloadAction<LoginApiResponse>) => ({
      ...initialSessionState,
      name: payload.profile.name,
      email: payload.profile.email,
      avatar: payload.profile.avatar ?? '',
      username: payload.username,
      currency: payload.currency,
      currency_type: payload.currency_type,
      authToken: payload.token,
      profile: payload.profile,
      auth_type: payload.profile.auth_type,
    }),
    profileUpdated: (state, { payload }: PayloadAction<Profile>) => {
      state.profile = payload;
      state.name = payload.name;
      state.email = payload.email;
      state.avatar = payload.avatar ?? '';
      state.auth_type = payload.auth_type;
    },
    loggedOut: () => initialSessionState,
    sessionExpired: () => initialSessionState,
  },
  extraReducers: (builder) => {
    // The sidebar's apps list has one source: the session, kept current from these responses.
    builder.addMatcher(answerOf<GetAppsApiResponse>('getApps'), (state, { payload }) => {
      state.apps = payload.data;
    });
    builder.addMatcher(answerOf<CreateAppApiResponse>('createApp'), (state, { payload }) => {
      state.apps = payload.data;
    });
  },
});

export const { signedIn, profileUpdated, loggedOut, sessionExpired } = sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;

type WithSession = { session: SessionState };
export const selectSession = (state: WithSession) => state.session;
export const selectIsSignedIn = (state: WithSession) => state.session.authToken !== '';
export const selectApps = (state: WithSession) => state.session.apps;
export const selectProfile = (state: WithSession) => state.session.profile;
export const selectCurrencySymbol = (state: WithSession) => state.session.currency_type || '$';
