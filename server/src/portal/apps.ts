import {
  generateApiKey,
  listApiKeys,
  revokeApiKey,
  setApiKeyAbilities,
  TOKEN_PERMISSIONS,
} from '../domain/apps/apiKeys';
import { appDetails, LIST_NAMES } from '../domain/apps/appDetails';
import { createApp, listApps, ownedApp, updateApp } from '../domain/apps/apps';
import { changeAppLogo, removeAppLogo } from '../domain/apps/logo';
import { openTestMode } from '../domain/testMode/testApps';
import { FUNDING_MSG, fundTestWallet } from '../domain/testMode/funding';
import { deleteTestData, TEST_DATA_MSG } from '../domain/testMode/testData';
import {
  gasWalletBalances,
  updatePaymentMethod,
  usePaymentMethod,
} from '../domain/apps/paymentMethods';
import { requeueDeposit } from '../domain/payments/depositRequeue';
import { settingsHeldMail, sendAlert } from '../domain/account/mail';
import { gasBalanceReader } from '../domain/chain/balances';
import { microToDecimal } from '../domain/money';
import { localChains, sendTestDeposit } from '../domain/payments/testDeposits';
import { isoNow } from '../domain/time';
import { clientOf } from '../http/client';
import { earliest, keptAnswer } from '../http/keptAnswers';
import { requireUser } from '../http/requestContext';
import { assertWebhookUrlAllowed, systemResolver } from '../domain/webhooks/ssrf';
import { cancelWithdrawal, reinitiateWithdrawal } from '../domain/payments/withdrawals';
import { done } from './replies';
import type { HandlerModule, Reply } from '../http/operationTypes';
import { codedMessages } from '../domain/messageCodes';

/** What the app screens' actions answer when they succeed. */
const APP_REPLIES = codedMessages('appReplies', {
  created: 'App created successfully',
  testMode: 'Test mode',
  updated: 'App updated successfully',
  logoUpdated: 'Logo updated successfully',
  logoRemoved: 'Logo removed successfully',
  keyGenerated: 'API key generated successfully',
  keyRevoked: 'API key revoked successfully',
  permissionsUpdated: 'Permissions updated successfully',
  methodAdded: 'Payment method added successfully',
  methodUpdated: 'Payment method updated successfully',
  depositRequeued: 'Deposit re-initiated successfully',
  testDepositSent: 'Test deposit sent',
  withdrawalCancelled: 'Withdrawal cancelled successfully',
  withdrawalRequeued: 'Withdrawal re-initiated successfully',
} as const);

// Operations tagged Apps in openapi.yaml, keyed by operationId.
export const appsHandlers: HandlerModule = (ctx) => {
  const balances = gasBalanceReader(ctx.config, ctx.chain, ctx.db);
  const local = localChains(ctx.config, ctx.db);
  const webhookTargets = {
    allowPrivate: ctx.config.webhooks.allowPrivate,
    resolve: systemResolver,
  };
  return {
    async getApps(request) {
      const user = requireUser(request);
      const now = ctx.clock().getTime();
      return keptAnswer(
        ctx.changes,
        {
          key: `getApps:${user.id}`,
          owner: user.id,
          now,
          // A whitelist hold is shown until it ends.
          until: ({ data }) => earliest(data.map((app) => app.whitelist_hold_until)),
        },
        async () => {
          const apps = await listApps(ctx.db, user.id, new Date(now).toISOString());
          return { status: true, data: apps } satisfies Reply<'getApps'>;
        },
      );
    },

    async createApp(request) {
      const user = requireUser(request);
      await assertWebhookUrlAllowed(request.body.callback_url, webhookTargets);
      const { app, apps } = await createApp(
        ctx.db,
        user.id,
        request.body,
        isoNow(ctx.clock),
        ctx.sign,
        clientOf(request),
      );
      return done(APP_REPLIES.created, { data: apps, app }) satisfies Reply<'createApp'>;
    },

    async openTestMode(request) {
      const user = requireUser(request);
      const app = await openTestMode(
        ctx.db,
        user.id,
        request.params.id,
        isoNow(ctx.clock),
        ctx.sign,
      );
      return done(APP_REPLIES.testMode, { app }) satisfies Reply<'openTestMode'>;
    },

    async updateApp(request) {
      const user = requireUser(request);
      await assertWebhookUrlAllowed(request.body.callback_url, webhookTargets);
      const { app, whitelistHeldUntil } = await updateApp(
        ctx.db,
        user.id,
        request.body,
        isoNow(ctx.clock),
        ctx.config.signer.holdHours,
        ctx.sign,
      );
      if (whitelistHeldUntil) {
        const change = {
          appName: app.app_name,
          what: 'IP whitelist' as const,
          until: whitelistHeldUntil,
        };
        const mail = settingsHeldMail(user, change, clientOf(request), ctx.clock);
        await sendAlert(ctx.config, mail, request.log, ctx.clock);
      }
      return done(APP_REPLIES.updated, { data: app }) satisfies Reply<'updateApp'>;
    },

    async uploadAppLogo(request) {
      const user = requireUser(request);
      const app = await changeAppLogo(
        ctx.db,
        ctx.files,
        user.id,
        request.params.id,
        request.body.logo,
        isoNow(ctx.clock),
      );
      return done(APP_REPLIES.logoUpdated, { data: app }) satisfies Reply<'uploadAppLogo'>;
    },

    async removeAppLogo(request) {
      const user = requireUser(request);
      const app = await removeAppLogo(
        ctx.db,
        ctx.files,
        user.id,
        request.params.id,
        isoNow(ctx.clock),
      );
      return done(APP_REPLIES.logoRemoved, { data: app }) satisfies Reply<'removeAppLogo'>;
    },

    async getAppDetails(request) {
      const user = requireUser(request);
      const { id } = request.params;
      const pages = request.query;
      const now = ctx.clock().getTime();
      return keptAnswer(
        ctx.changes,
        {
          key: `getAppDetails:${user.id}:${id}:${LIST_NAMES.map((list) => pages[list] ?? 1).join()}`,
          owner: user.id,
          now,
          // Holds are shown until they end.
          until: ({ data }) =>
            earliest([
              data.app_data.whitelist_hold_until,
              ...data.user_payment_methods.map((method) => method.payout_hold_until),
            ]),
        },
        async () => {
          const data = await appDetails(ctx.db, user.id, id, pages, local, {
            nowIso: new Date(now).toISOString(),
            feeLeg: ctx.config.signer.feeAddress !== undefined,
          });
          return { status: true, data } satisfies Reply<'getAppDetails'>;
        },
      );
    },

    async listTokens(request) {
      const user = requireUser(request);
      const data = await listApiKeys(ctx.db, user.id, request.params.appid);
      return { status: true, data } satisfies Reply<'listTokens'>;
    },

    async listTokenPermissions(request) {
      requireUser(request);
      return {
        status: true,
        data: TOKEN_PERMISSIONS.map(({ title, value }) => ({ title, value })),
      } satisfies Reply<'listTokenPermissions'>;
    },

    async generateApiKey(request) {
      const user = requireUser(request);
      const { token, key } = await generateApiKey(
        ctx.db,
        user.id,
        request.body,
        isoNow(ctx.clock),
        clientOf(request),
      );
      return done(APP_REPLIES.keyGenerated, {
        token,
        data: key,
      }) satisfies Reply<'generateApiKey'>;
    },

    async revokeToken(request) {
      const user = requireUser(request);
      const { appid, tokenId } = request.params;
      await revokeApiKey(ctx.db, user.id, appid, tokenId, isoNow(ctx.clock), clientOf(request));
      return { status: true, msg: APP_REPLIES.keyRevoked } satisfies Reply<'revokeToken'>;
    },

    async updatePermissions(request) {
      const user = requireUser(request);
      const { app_id: appId, abilities } = request.body;
      await setApiKeyAbilities(ctx.db, user.id, appId, request.params.tokenId, abilities);
      return done(APP_REPLIES.permissionsUpdated) satisfies Reply<'updatePermissions'>;
    },

    async fetchBalance(request) {
      const user = requireUser(request);
      const { paymentMethodId, gasAddress, appDataId } = request.params;
      const { nativeMicro, tokenMicro } = await gasWalletBalances(ctx.db, balances, user.id, {
        appId: appDataId,
        paymentMethodId,
        gasAddress,
      });
      return {
        status: true,
        nativeAmount: microToDecimal(nativeMicro),
        tokenAmount: tokenMicro === null ? null : microToDecimal(tokenMicro),
      } satisfies Reply<'fetchBalance'>;
    },

    async usePaymentMethod(request) {
      const user = requireUser(request);
      await usePaymentMethod(ctx.db, user.id, request.body, isoNow(ctx.clock), ctx.sign);
      return done(APP_REPLIES.methodAdded) satisfies Reply<'usePaymentMethod'>;
    },

    async updatePaymentMethod(request) {
      const user = requireUser(request);
      const { payoutHeldUntil } = await updatePaymentMethod(
        ctx.db,
        user.id,
        request.body,
        isoNow(ctx.clock),
        ctx.config.signer.holdHours,
        ctx.sign,
      );
      if (payoutHeldUntil) {
        const app = await ownedApp(ctx.db, user.id, request.body.user_app_id);
        const change = {
          appName: app.app_name,
          what: 'payout address' as const,
          until: payoutHeldUntil,
        };
        const mail = settingsHeldMail(user, change, clientOf(request), ctx.clock);
        await sendAlert(ctx.config, mail, request.log, ctx.clock);
      }
      return done(APP_REPLIES.methodUpdated) satisfies Reply<'updatePaymentMethod'>;
    },

    async requeueDeposit(request) {
      const user = requireUser(request);
      await requeueDeposit(ctx.db, user.id, request.params.id);
      return done(APP_REPLIES.depositRequeued) satisfies Reply<'requeueDeposit'>;
    },

    async sendTestDeposit(request) {
      const user = requireUser(request);
      const { account_id: accountId, method, amount } = request.body;
      const { thash, blockNumber } = await sendTestDeposit(ctx.db, local, user.id, {
        accountId,
        method,
        amount,
        now: ctx.clock(),
      });
      return done(APP_REPLIES.testDepositSent, {
        data: { thash, block_number: blockNumber },
      }) satisfies Reply<'sendTestDeposit'>;
    },

    async deleteTestData(request) {
      const user = requireUser(request);
      const deleted = await deleteTestData(ctx.db, user.id, request.params.id);
      return done(TEST_DATA_MSG.deleted, { data: deleted }) satisfies Reply<'deleteTestData'>;
    },

    async fundTestWallet(request) {
      const user = requireUser(request);
      const funded = await fundTestWallet(ctx.db, local, user.id, {
        appId: request.params.id,
        paymentMethodId: request.body.payment_method_id,
        now: ctx.clock(),
      });
      return done(FUNDING_MSG.sent, {
        data: {
          native_amount: funded.nativeAmount,
          token_amount: funded.tokenAmount,
          block_number: funded.blockNumber,
        },
      }) satisfies Reply<'fundTestWallet'>;
    },

    async cancelWithdraw(request) {
      const user = requireUser(request);
      await cancelWithdrawal(ctx.db, user.id, request.params.id, ctx.clock());
      return done(APP_REPLIES.withdrawalCancelled) satisfies Reply<'cancelWithdraw'>;
    },

    async requeueWithdraw(request) {
      const user = requireUser(request);
      await reinitiateWithdrawal(
        ctx.db,
        (db) => gasBalanceReader(ctx.config, ctx.chain, db),
        user.id,
        request.params.id,
        ctx.clock(),
      );
      return done(APP_REPLIES.withdrawalRequeued) satisfies Reply<'requeueWithdraw'>;
    },
  };
};
