// The stateful flows, one module per tag, in the order they run: sign-up makes the account
// the others use, the purchase leaves the subscription the apps flow (and the gateway's
// flows, after all of these) need, and the credential changes come last.
import { appKeysAndPermissions } from './apps.mjs';
import { signOut, signUpAndSignIn } from './auth.mjs';
import { gatewayAccounts, gatewayDeposit, gatewayInvoice } from './gateway.mjs';
import { profileAndKyc } from './profile.mjs';
import { credentialChanges } from './security.mjs';
import { purchaseAndCancel } from './subscriptions.mjs';

export { runFlow } from './flow.mjs';
export { gatewaySetup } from './gateway.mjs';

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

/** The gateway's flows, after the portal's (the setup in gateway.mjs makes their key). */
export const GATEWAY_FLOWS = [gatewayAccounts, gatewayDeposit, gatewayInvoice];
