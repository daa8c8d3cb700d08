import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Step one of sign-in answers an auth type and a short-lived step token. The token is held here,
 * in memory only, for step two; it is never the session's authToken and is never persisted.
 */
export interface SignInState {
  stepToken: string;
  authType: string;
  username: string;
}

const initialState: SignInState = { stepToken: '', authType: '', username: '' };

const signInSlice = createSlice({
  name: 'signIn',
  initialState,
  reducers: {
    stepOnePassed: (_state, { payload }: PayloadAction<SignInState>) => payload,
    signInReset: () => initialState,
  },
});

export const { stepOnePassed, signInReset } = signInSlice.actions;
export const signInReducer = signInSlice.reducer;
export const selectSignIn = (state: { signIn: SignInState }) => state.signIn;
