// One source for client and server: a pure module both import (no React, browser or Node APIs).

/** A balance sync that found a deposit: the server's msg, and what the wallet screen shows. */
export const NEW_DEPOSIT_FOUND = 'New Deposit Found !!';
/** A downgrade without its reason: checked by the plan dialog and by the server. */
export const DOWNGRADE_REASON_REQUIRED = 'Please Enter Reason for Downgrade';
