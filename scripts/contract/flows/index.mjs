// The stateful flows, one module per tag, in the order they run: sign-up makes the account
// the others use, the purchase leaves the subscription the apps flow needs, and the
// credential changes come last.
import { appKeysAndPermissions } from './apps.mjs';
import { signOut, signUpAndSignIn } from './auth.mjs';
import { profileAndKyc } from './profile.mjs';
import { credentialChanges } from './security.mjs';
import { purchaseAndCancel } from './subscriptions.mjs';

export { runFlow } from './flow.mjs';

/** @typedef {import('./flow.mjs').FlowDefinition} FlowDefinition */

/** @type {FlowDefinition[]} */
export const FLOWS = [
  signUpAndSignIn,
  signOut,
  purchaseAndCancel,
  appKeysAndPermissions,
  profileAndKyc,
  credentialChanges,
];
