import {
  createSlice,
  isAnyOf,
  isFulfilled,
  type PayloadAction,
  type UnknownAction,
} from '@reduxjs/toolkit';
import type { App, appsApi } from '../../api/generated/apps.gen';
import type { LoginApiResponse, Profile } from '../../api/generated/auth.gen';
import type { profileApi } from '../../api/generated/profile.gen';
import type { securityApi } from '../../api/generated/security.gen';

/** The session values kept in browser storage: who is signed in, their profile and apps. */
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

type Endpoints = (typeof appsApi & typeof profileApi & typeof securityApi)['endpoints'];

/**
 * An endpoint's success, told by the endpoint name RTK Query puts in the action (what its
 * matchFulfilled checks): importing the API here would bring RTK Query and the apps, profile
 * and security endpoints into what /login loads (npm run size).
 */
const fulfilled = <Name extends keyof Endpoints>(name: Name) =>
  ((action: UnknownAction) =>
    isFulfilled(action) &&
    action.type.startsWith('api/') &&
    (action.meta as { arg?: { endpointName?: string } }).arg?.endpointName ===
      name) as Endpoints[Name]['matchFulfilled'];

function applyProfile(state: SessionState, profile: Profile | null) {
  if (!profile) return;
  state.profile = profile;
  state.name = profile.name;
  state.email = profile.email;
  state.avatar = profile.avatar ?? '';
  state.auth_type = profile.auth_type;
}

const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    signedIn: (_state, { payload }: PayloadAction<LoginApiResponse>) => {
      const session: SessionState = {
        ...initialSessionState,
        username: payload.username,
        currency: payload.currency,
        currency_type: payload.currency_type,
        authToken: payload.token,
      };
      applyProfile(session, payload.profile);
      return session;
    },
    loggedOut: () => initialSessionState,
    sessionExpired: () => initialSessionState,
  },
  extraReducers: (builder) => {
    // The sidebar's apps list and the header's profile have one source: the session, kept
    // current from the answers that carry them.
    builder
      .addMatcher(isAnyOf(fulfilled('getApps'), fulfilled('createApp')), (state, { payload }) => {
        state.apps = payload.data;
      })
      .addMatcher(fulfilled('updateProfile'), (state, { payload }) =>
        applyProfile(state, payload.profile),
      )
      .addMatcher(fulfilled('changePicture'), (state, { payload }) =>
        applyProfile(state, state.profile && { ...state.profile, avatar: payload.avatar }),
      )
      // The authenticator's secret must not linger in the stored profile once the setup is done.
      .addMatcher(fulfilled('change2Fa'), (state, { payload }) =>
        applyProfile(
          state,
          payload.profile ?? (state.profile && { ...state.profile, image_2fa: null }),
        ),
      )
      .addMatcher(fulfilled('updateAuthentication'), (state, { payload }) =>
        applyProfile(
          state,
          payload.profile ?? (state.profile && { ...state.profile, auth_type: payload.auth_type }),
        ),
      );
  },
});

export const { signedIn, loggedOut, sessionExpired } = sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;

type WithSession = { session: SessionState };
export const selectSession = (state: WithSession) => state.session;
export const selectIsSignedIn = (state: WithSession) => state.session.authToken !== '';
export const selectApps = (state: WithSession) => state.session.apps;
export const selectProfile = (state: WithSession) => state.session.profile;
export const selectCurrencySymbol = (state: WithSession) => state.session.currency_type || '$';
