import type { FastifyRequest } from 'fastify';
import { checkPayoutAddress } from '../domain/addresses';
import {
  checkAbilities,
  KEY_MSG,
  newApiKey,
  parseAbilities,
  TOKEN_PERMISSIONS,
} from '../domain/apiKeys';
import {
  APP_MSG,
  appDetails,
  appLimit,
  checkAppFields,
  countAppMethods,
  DEPOSIT_REQUEUE,
  findOwnedApp,
  listApps,
  STATE_MSG,
  toAppView,
  WITHDRAW_ACTIONABLE,
  WITHDRAW_CANCELLED,
  WITHDRAW_REQUEUED,
  type AppFieldsInput,
  type PageNumbers,
} from '../domain/apps';
import { chainAdapterFor, ChainUnavailableError } from '../domain/chain';
import { ChainNotServedError, gasBalanceReader } from '../domain/chain/balances';
import { newId } from '../domain/ids';
import { microToDecimal } from '../domain/money';
import { isoNow } from '../domain/time';
import { conflict, fieldError, HttpError, notFound, validationFailed } from '../http/errors';
import { requireUser } from '../http/requestContext';
import type { AppContext, HandlerModule } from './types';

// Every app-scoped operation looks the app (or the key, method or transaction through its app)
// up together with the signed-in user's id: another account's id is a 404 and changes nothing.

type UpdateAppBody = AppFieldsInput & { app_id: string; status: 0 | 1 };
interface GenerateKeyBody {
  token_name: string;
  app_id: string;
  abilities: string[];
}
interface UpdatePermissionsBody {
  abilities: string[];
  app_id: string;
}
interface UsePaymentMethodBody {
  payment_method_id: string;
  collect_address: string;
  user_app_id: string;
}
interface UpdatePaymentMethodBody {
  id: string;
  user_app_id: string;
  type: 'address' | 'deposit_status' | 'withdraw_status';
  collect_address?: string;
  status?: 0 | 1;
}
type DetailsQuery = PageNumbers;
interface FetchBalanceParams {
  paymentMethodId: string;
  gasAddress: string;
  appDataId: string;
}

export const CHAIN_UNAVAILABLE_MSG =
  'The blockchain could not be reached. Please try again in a minute.';

/** EVM addresses compare case-insensitively (the case is only a checksum); Tron ones exactly. */
function sameAddress(a: string, b: string): boolean {
  return a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b;
}

async function ownedApp(ctx: AppContext, userId: string, appId: string) {
  const app = await findOwnedApp(ctx.db, userId, appId);
  if (!app) throw notFound();
  return app;
}

async function liveKey(ctx: AppContext, userId: string, appId: string, keyId: string) {
  await ownedApp(ctx, userId, appId);
  const key = await ctx.db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', keyId)
    .where('app_id', '=', appId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!key) throw notFound();
  return key;
}

function keyView(row: { id: string; token_name: string; created_at: string; abilities: string }) {
  return {
    id: row.id,
    token_name: row.token_name,
    created_at: row.created_at,
    abilities: parseAbilities(row.abilities),
  };
}

async function ownedDeposit(ctx: AppContext, userId: string, id: string) {
  const row = await ctx.db
    .selectFrom('receive_transactions')
    .innerJoin('apps', 'apps.id', 'receive_transactions.app_id')
    .select(['receive_transactions.id', 'receive_transactions.deposit_status'])
    .where('receive_transactions.id', '=', id)
    .where('apps.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function ownedWithdrawal(ctx: AppContext, userId: string, id: string) {
  const row = await ctx.db
    .selectFrom('send_transactions')
    .innerJoin('apps', 'apps.id', 'send_transactions.app_id')
    .select(['send_transactions.id', 'send_transactions.status'])
    .where('send_transactions.id', '=', id)
    .where('apps.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Moves a withdrawal from 3 or 6 to `to`; the status guard in the update makes it race-free. */
async function moveWithdrawal(ctx: AppContext, userId: string, id: string, to: 2 | 7, msg: string) {
  const row = await ownedWithdrawal(ctx, userId, id);
  if (!WITHDRAW_ACTIONABLE.includes(row.status)) throw conflict(msg);
  const result = await ctx.db
    .updateTable('send_transactions')
    .set({ status: to })
    .where('id', '=', row.id)
    .where('status', 'in', [...WITHDRAW_ACTIONABLE] as (3 | 6)[])
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw conflict(msg);
}

export const appsHandlers: HandlerModule = (ctx) => {
  const balances = gasBalanceReader(ctx.config, chainAdapterFor(ctx.config, ctx.db));
  return {
    async getApps(request: FastifyRequest) {
      const user = requireUser(request);
      return { status: true, data: await listApps(ctx.db, user.id) };
    },

    async createApp(request: FastifyRequest<{ Body: AppFieldsInput }>) {
      const user = requireUser(request);
      const checked = checkAppFields(request.body);
      if (!checked.ok) throw validationFailed(checked.errors);
      const now = isoNow(ctx.clock);
      const id = newId('app');
      await ctx.db.transaction().execute(async (trx) => {
        // Count and insert in one transaction so two quick submits cannot both pass the limit.
        const { limit, subscribed } = await appLimit(trx, user.id, now);
        const { n } = await trx
          .selectFrom('apps')
          .select((e) => e.fn.countAll<number>().as('n'))
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
        if (Number(n) >= limit) throw validationFailed({}, APP_MSG.appLimit(limit, subscribed));
        // status is the merchant's Ready switch; the app shows Ready once a method is in use too.
        await trx
          .insertInto('apps')
          .values({
            id,
            user_id: user.id,
            ...checked.value,
            status: 1,
            created_at: now,
            updated_at: now,
          })
          .execute();
      });
      const data = await listApps(ctx.db, user.id);
      const app = data.find((a) => a.id === id);
      return { status: true, msg: 'App created successfully', data, app };
    },

    async updateApp(request: FastifyRequest<{ Body: UpdateAppBody }>) {
      const user = requireUser(request);
      const { app_id: appId, status, ...fields } = request.body;
      const app = await ownedApp(ctx, user.id, appId);
      const checked = checkAppFields(fields);
      if (!checked.ok) throw validationFailed(checked.errors);
      const methods = await countAppMethods(ctx.db, app.id);
      if (status === 1 && methods === 0) throw fieldError('status', APP_MSG.readyNeedsMethod);
      const updated = await ctx.db
        .updateTable('apps')
        .set({ ...checked.value, status, updated_at: isoNow(ctx.clock) })
        .where('id', '=', app.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { status: true, msg: 'App updated successfully', data: toAppView(updated, methods) };
    },

    async getAppDetails(
      request: FastifyRequest<{ Params: { id: string }; Querystring: DetailsQuery }>,
    ) {
      const user = requireUser(request);
      const app = await ownedApp(ctx, user.id, request.params.id);
      return { status: true, data: await appDetails(ctx.db, app, request.query) };
    },

    async listTokens(request: FastifyRequest<{ Params: { appid: string } }>) {
      const user = requireUser(request);
      const app = await ownedApp(ctx, user.id, request.params.appid);
      const rows = await ctx.db
        .selectFrom('api_keys')
        .select(['id', 'token_name', 'created_at', 'abilities'])
        .where('app_id', '=', app.id)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return { status: true, data: rows.map(keyView) };
    },

    async listTokenPermissions(request: FastifyRequest) {
      requireUser(request);
      return {
        status: true,
        data: TOKEN_PERMISSIONS.map(({ title, value }) => ({ title, value })),
      };
    },

    async generateApiKey(request: FastifyRequest<{ Body: GenerateKeyBody }>) {
      const user = requireUser(request);
      const app = await ownedApp(ctx, user.id, request.body.app_id);
      const name = request.body.token_name.trim();
      const abilities = checkAbilities(request.body.abilities);
      const errors: Record<string, string[]> = {};
      if (name === '') errors.token_name = [KEY_MSG.nameRequired];
      if (!abilities.ok) errors.abilities = [abilities.message];
      if (!abilities.ok || name === '') throw validationFailed(errors);
      const { key, hash, prefix } = newApiKey();
      const row = {
        id: newId('key'),
        app_id: app.id,
        token_name: name,
        token_hash: hash,
        token_prefix: prefix,
        abilities: JSON.stringify(abilities.value),
        created_at: isoNow(ctx.clock),
        revoked_at: null,
        last_used_at: null,
      };
      await ctx.db.insertInto('api_keys').values(row).execute();
      return {
        status: true,
        msg: 'API key generated successfully',
        token: key,
        data: keyView(row),
      };
    },

    async revokeToken(request: FastifyRequest<{ Params: { tokenId: string; appid: string } }>) {
      const user = requireUser(request);
      const key = await liveKey(ctx, user.id, request.params.appid, request.params.tokenId);
      await ctx.db
        .updateTable('api_keys')
        .set({ revoked_at: isoNow(ctx.clock) })
        .where('id', '=', key.id)
        .execute();
      return { status: true, msg: 'API key revoked successfully' };
    },

    async updatePermissions(
      request: FastifyRequest<{ Params: { tokenId: string }; Body: UpdatePermissionsBody }>,
    ) {
      const user = requireUser(request);
      const key = await liveKey(ctx, user.id, request.body.app_id, request.params.tokenId);
      const abilities = checkAbilities(request.body.abilities);
      if (!abilities.ok) throw fieldError('abilities', abilities.message);
      await ctx.db
        .updateTable('api_keys')
        .set({ abilities: JSON.stringify(abilities.value) })
        .where('id', '=', key.id)
        .execute();
      return { status: true, msg: 'Permissions updated successfully' };
    },

    async fetchBalance(request: FastifyRequest<{ Params: FetchBalanceParams }>) {
      const user = requireUser(request);
      const { paymentMethodId, gasAddress, appDataId } = request.params;
      const app = await ownedApp(ctx, user.id, appDataId);
      const used = await ctx.db
        .selectFrom('app_payment_methods')
        .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
        .select([
          'app_payment_methods.gas_address',
          'payment_methods.chain_id',
          'payment_methods.network_name',
          'payment_methods.network_type',
          'payment_methods.is_token',
          'payment_methods.token_contract_address',
          'payment_methods.decimals',
        ])
        .where('app_payment_methods.app_id', '=', app.id)
        .where('app_payment_methods.payment_method_id', '=', paymentMethodId)
        .executeTakeFirst();
      if (!used?.gas_address || !sameAddress(used.gas_address, gasAddress)) throw notFound();
      try {
        const { nativeMicro, tokenMicro } = await balances.read(used, used.gas_address);
        return {
          status: true,
          nativeAmount: microToDecimal(nativeMicro),
          tokenAmount: tokenMicro === null ? null : microToDecimal(tokenMicro),
        };
      } catch (error) {
        if (error instanceof ChainNotServedError) throw validationFailed({}, error.message);
        if (!(error instanceof ChainUnavailableError)) throw error;
        request.log.warn({ err: error.cause ?? error }, error.message);
        throw new HttpError(503, CHAIN_UNAVAILABLE_MSG);
      }
    },

    async usePaymentMethod(request: FastifyRequest<{ Body: UsePaymentMethodBody }>) {
      const user = requireUser(request);
      const app = await ownedApp(ctx, user.id, request.body.user_app_id);
      const method = await ctx.db
        .selectFrom('payment_methods')
        .select(['id', 'network_type'])
        .where('id', '=', request.body.payment_method_id)
        .where('is_active', '=', 1)
        .executeTakeFirst();
      if (!method) throw notFound();
      const address = checkPayoutAddress(method.network_type, request.body.collect_address);
      if (!address.ok) throw fieldError('collect_address', address.message);
      const inserted = await ctx.db
        .insertInto('app_payment_methods')
        .values({
          id: newId('upm'),
          app_id: app.id,
          payment_method_id: method.id,
          collect_address: address.address,
          // The background job (domain/gasProvisioner.ts) creates the operational wallet.
          gas_address: null,
          gas_index: null,
          deposit_status: 1,
          withdraw_status: 1,
          created_at: isoNow(ctx.clock),
        })
        .onConflict((oc) => oc.columns(['app_id', 'payment_method_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
        throw conflict('This payment method is already in use in this app.');
      }
      return { status: true, msg: 'Payment method added successfully' };
    },

    async updatePaymentMethod(request: FastifyRequest<{ Body: UpdatePaymentMethodBody }>) {
      const user = requireUser(request);
      const body = request.body;
      const app = await ownedApp(ctx, user.id, body.user_app_id);
      const used = await ctx.db
        .selectFrom('app_payment_methods')
        .innerJoin('payment_methods', 'payment_methods.id', 'app_payment_methods.payment_method_id')
        .select(['app_payment_methods.id', 'payment_methods.network_type'])
        .where('app_payment_methods.id', '=', body.id)
        .where('app_payment_methods.app_id', '=', app.id)
        .executeTakeFirst();
      if (!used) throw notFound();
      if (body.type === 'address') {
        const address = checkPayoutAddress(used.network_type, body.collect_address);
        if (!address.ok) throw fieldError('collect_address', address.message);
        await ctx.db
          .updateTable('app_payment_methods')
          .set({ collect_address: address.address })
          .where('id', '=', used.id)
          .execute();
      } else {
        if (body.status === undefined) throw fieldError('status', 'Status is required');
        await ctx.db
          .updateTable('app_payment_methods')
          .set(
            body.type === 'deposit_status'
              ? { deposit_status: body.status }
              : { withdraw_status: body.status },
          )
          .where('id', '=', used.id)
          .execute();
      }
      return { status: true, msg: 'Payment method updated successfully' };
    },

    async requeueDeposit(request: FastifyRequest<{ Params: { id: string } }>) {
      const user = requireUser(request);
      const row = await ownedDeposit(ctx, user.id, request.params.id);
      const from: readonly number[] = DEPOSIT_REQUEUE.from;
      if (!from.includes(row.deposit_status)) throw conflict(STATE_MSG.depositNotFailed);
      const result = await ctx.db
        .updateTable('receive_transactions')
        .set({ deposit_status: DEPOSIT_REQUEUE.to, process_datetime: null })
        .where('id', '=', row.id)
        .where('deposit_status', '=', 5)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw conflict(STATE_MSG.depositNotFailed);
      return { status: true, msg: 'Deposit re-initiated successfully' };
    },

    async cancelWithdraw(request: FastifyRequest<{ Params: { id: string } }>) {
      const user = requireUser(request);
      await moveWithdrawal(
        ctx,
        user.id,
        request.params.id,
        WITHDRAW_CANCELLED,
        STATE_MSG.withdrawNotCancellable,
      );
      return { status: true, msg: 'Withdrawal cancelled successfully' };
    },

    async requeueWithdraw(request: FastifyRequest<{ Params: { id: string } }>) {
      const user = requireUser(request);
      await moveWithdrawal(
        ctx,
        user.id,
        request.params.id,
        WITHDRAW_REQUEUED,
        STATE_MSG.withdrawNotRequeueable,
      );
      return { status: true, msg: 'Withdrawal re-initiated successfully' };
    },
  };
};
