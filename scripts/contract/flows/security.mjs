// The Security flow: set up the authenticator app, sign in with it, switch back to the pin,
// then change the pin and the password, each refused first with a wrong credential.
import { randomBytes } from 'node:crypto';
import * as v from '../values.mjs';

/**
 * @typedef {import('./flow.mjs').Flow} Flow
 * @typedef {import('./flow.mjs').FlowDefinition} FlowDefinition
 * @typedef {import('../runner.mjs').Account} Account
 */
/**
 * @template T
 * @typedef {import('./flow.mjs').Step<T>} Step
 */
/**
 * The answers this flow reads, as the contract declares them.
 * @typedef {{ more_details: { authenticator: number }, auth_type: string,
 *   image_2fa: string | null }} Authentication
 * @typedef {{ auth_type: string }} SwitchedAuthentication
 * @typedef {{ token: string, auth_type: string }} PreLogin
 */

/** @type {FlowDefinition} */
export const credentialChanges = {
  name: 'authenticator, pin and password changes',
  ops: [
    'getAuthentication',
    'change2fa',
    'updateAuthentication',
    'resendOtp',
    'changeMpin',
    'changePassword',
  ],
  needs: (r) => (r.account ? null : 'needs --register (it changes the credentials)'),
  /** @param {Flow} f */
  async run(f) {
    const r = f.runner;
    const account = /** @type {Account} */ (r.account);
    /** @type {Step<Authentication>} */
    const settings = await f.step('getAuthentication', {}, 200);
    f.expect(
      settings.json?.more_details?.authenticator === 0 && settings.json?.auth_type === 'mpin',
      `a new account's security settings are ${JSON.stringify(settings.json)}`,
      settings,
    );
    const app = v.authenticatorOf(settings.json?.image_2fa);
    if (!app) f.skip('getAuthentication gives no otpauth://totp URL to set the authenticator up');
    await f.step('resendOtp', {}, 422); // the active method is the pin, not e-mailed codes
    const now = app.step();
    const wrong = ['000000', '123456', '999999'].find(
      (c) => ![now - 1, now, now + 1].some((s) => app.code(s) === c),
    );
    await f.step('change2fa', { json: { code: wrong } }, 422);
    r.authenticator = app;
    const confirmed = await r.totp();
    await f.step('change2fa', { json: { code: confirmed } }, 200);
    /** @type {Step<Authentication>} */
    const setUp = await f.step('getAuthentication', {}, 200);
    f.expect(
      setUp.json?.more_details?.authenticator === 1 && setUp.json?.image_2fa === null,
      `after change2fa the settings are ${JSON.stringify(setUp.json)}`,
      setUp,
    );
    // Set up already: 409 whatever the code (a used one keeps the three fresh steps for later).
    await f.step('change2fa', { json: { code: confirmed } }, 409);
    const badPin = String((Number(account.pin) + 1) % 10_000).padStart(4, '0');
    const toApp = { type: 'authenticator' };
    await f.step('updateAuthentication', { json: { ...toApp, spassword: badPin } }, 422);
    /** @type {Step<SwitchedAuthentication>} */
    const switched = await f.step(
      'updateAuthentication',
      { json: { ...toApp, spassword: account.pin } },
      200,
    );
    f.expect(
      switched.json?.auth_type === 'authenticator',
      'updateAuthentication answers another auth_type',
      switched,
    );
    // Signing in now takes an authenticator code.
    const credentials = () => ({ username: account.username, password: account.password });
    /** @type {Step<PreLogin>} */
    const step = await f.step('preLogin', { json: credentials(), auth: 'none' }, 200);
    r.transport.secrets.add(step.json.token);
    f.expect(
      step.json?.auth_type === 'authenticator',
      `preLogin asks for ${step.json?.auth_type}, expected authenticator`,
      step,
    );
    const code = await r.totp();
    const json = { ...credentials(), authenticator: code };
    await f.step('login', { json, bearer: step.json.token }, 200);
    const back = { type: 'mpin', code: await r.totp() };
    await f.step('updateAuthentication', { json: back }, 200);

    const pin = String((Number(account.pin) + 4321) % 10_000).padStart(4, '0');
    const newPin = { password: account.password, spassword: pin, spassword_confirmation: pin };
    await f.step('changeMpin', { json: { ...newPin, spassword_confirmation: badPin } }, 422);
    const oldPin = account.pin;
    await f.step('changeMpin', { json: newPin }, 200); // the runner now signs in with `pin`
    /** @type {Step<PreLogin>} */
    const pinStep = await f.step('preLogin', { json: credentials(), auth: 'none' }, 200);
    r.transport.secrets.add(pinStep.json.token);
    const withOld = { ...credentials(), mpin: oldPin };
    await f.step('login', { json: withOld, bearer: pinStep.json.token }, 422);
    const withNew = { ...credentials(), mpin: pin };
    await f.step('login', { json: withNew, bearer: pinStep.json.token }, 200);

    const password = `Cc-${randomBytes(6).toString('hex')}!8`;
    const change = {
      currentpassword: account.password,
      newpassword: password,
      newpassword_confirmation: password,
      mpin: pin,
    };
    await f.step('changePassword', { json: { ...change, mpin: badPin } }, 422);
    const oldPassword = account.password;
    await f.step('changePassword', { json: change }, 200);
    const old = { username: account.username, password: oldPassword };
    await f.step('preLogin', { json: old, auth: 'none' }, 422);
    await f.step('preLogin', { json: credentials(), auth: 'none' }, 200);
    await f.step('getDashboard', {}, 200); // the session that changed it stays
  },
};
