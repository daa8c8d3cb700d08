import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DEPOSIT_ADDRESS,
  fixtures,
  makeWalletDetails,
  makeWalletTransaction,
} from '../../../test/factories/wallet';
import { ok, on, reply } from '../../../test/msw/contract';
import { refuse, server } from '../../../test/msw/server';
import { renderRoute, SIGNED_IN } from '../../../test/renderWithProviders';

async function renderWallet() {
  const user = userEvent.setup();
  const view = renderRoute('/app/wallet', { session: SIGNED_IN });
  // The first render loads the lazy layout and page chunks.
  await screen.findByRole('heading', { name: 'Wallet', level: 1 }, { timeout: 5000 });
  return { user, ...view };
}

describe('Wallet', () => {
  test('shows the address shortened 10 + 10, its QR, the network, coin and balance', async () => {
    await renderWallet();
    expect(await screen.findByTestId('deposit-address')).toHaveTextContent(
      /^0x8ba1f109\.\.\.ddd64DBA72$/,
    );
    expect(screen.getByTestId('deposit-address')).toHaveAttribute('title', DEPOSIT_ADDRESS);
    expect(screen.getByTitle(`QR code of ${DEPOSIT_ADDRESS}`)).toBeInTheDocument();
    expect(screen.getByText('Binance smart chain')).toBeInTheDocument();
    expect(screen.getByText('Coin').nextElementSibling).toHaveTextContent('USDT');
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent(/^\$150\.50$/);
  });

  test('shows the balance as the sidebar does: 2 decimals after the currency symbol', async () => {
    server.use(
      reply('getBalance', { status: true, data: { payInBalance: 426.75 } }),
      reply('getCryptoDeposit', {
        ...fixtures.getCryptoDeposit,
        details: makeWalletDetails({ balance: 426.75 }),
      }),
    );
    await renderWallet();
    await waitFor(() => expect(screen.getByTestId('balance-amount')).toHaveTextContent('$426.75'));
    expect(screen.getByTestId('wallet-balance')).toHaveTextContent(/^\$426\.75$/);
  });

  test('shows the BEP20-only warning without opening the Disclaimer', async () => {
    await renderWallet();
    expect(await screen.findByTestId('bep20-warning')).toHaveTextContent(
      'Only BEP20 (Binance smart chain) USDT deposits are accepted. Deposits sent on other networks such as ERC20 or TRC20 are neither credited nor refunded.',
    );
    expect(screen.getByTestId('bep20-warning')).toBeVisible();
  });

  test('downloads the deposits and the whole ledger as CSV', async () => {
    const kinds: unknown[] = [];
    server.use(
      on('createExportLink', ({ params }) => {
        kinds.push(params.kind);
        return ok('createExportLink', {
          status: true,
          data: { url: '/file.csv', expires_at: '2026-11-01T09:01:00.000Z' },
        });
      }),
    );
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = await renderWallet();
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(kinds).toEqual(['top_ups']));
    await user.click(screen.getByRole('button', { name: 'Download ledger CSV' }));
    await waitFor(() => expect(kinds).toEqual(['top_ups', 'ledger']));
    expect(click).toHaveBeenCalledTimes(2);
    click.mockRestore();
  });

  test('copies the full address with the spec toast', async () => {
    const { user } = await renderWallet();
    const write = jest.spyOn(navigator.clipboard, 'writeText');
    await user.click(await screen.findByRole('button', { name: 'Copy address' }));
    expect(write).toHaveBeenCalledWith(DEPOSIT_ADDRESS);
    expect(await screen.findByText('Address Copied SuccessFully')).toBeInTheDocument();
  });

  test('shows the three summary cards', async () => {
    server.use(
      reply('getCryptoDeposit', {
        ...fixtures.getCryptoDeposit,
        details: makeWalletDetails({
          totalDepositCount: 3,
          totalDepositAmount: 445.75,
          amountToPay: 12.345,
        }),
      }),
    );
    await renderWallet();
    const card = (label: string) => screen.getByText(label).closest('.card') as HTMLElement;
    await screen.findByText('Total Deposit Transactions');
    expect(card('Total Deposit Transactions')).toHaveTextContent('3');
    expect(card('Total Deposit Amount')).toHaveTextContent('$445.75');
    expect(card('Subscription Due')).toHaveTextContent('$12.35');
  });

  test('lists deposits: hash to the BSC explorer, 4 decimals, Confirmed / Pending, time', async () => {
    await renderWallet();
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const tx = makeWalletTransaction().tnx;
    const link = within(rows[0] as HTMLElement).getByRole('link');
    expect(link).toHaveAttribute('href', `https://bscscan.com/tx/${tx}`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveTextContent(`${tx.slice(0, 10)}...${tx.slice(-10)}`);
    expect(rows[0]).toHaveTextContent('200.4900 USDT');
    expect(rows[0]).toHaveTextContent('Confirmed');
    expect(rows[0]).toHaveTextContent('November 15, 2026');
    expect(rows[1]).toHaveTextContent('0.1235 USDT');
    expect(rows[1]).toHaveTextContent('Pending');
  });

  test('says No record Found without deposits', async () => {
    server.use(
      reply('getCryptoDeposit', {
        status: true,
        details: makeWalletDetails(),
        data: { data: [] },
      }),
    );
    await renderWallet();
    expect(await screen.findByText('No record Found')).toBeInTheDocument();
  });

  test('opens the two info popovers', async () => {
    const { user } = await renderWallet();
    await user.click(await screen.findByRole('button', { name: 'Disclaimer' }));
    const disclaimer = await screen.findByRole('heading', { name: 'Disclaimer' });
    expect(disclaimer.closest('.popover')).toHaveTextContent(/neither credited nor refunded/);
    await user.click(screen.getByRole('button', { name: 'Note' }));
    expect(await screen.findByText(/After depositing, click Check Balance/)).toBeInTheDocument();
  });

  test('Check Balance with a new deposit says so and reloads the wallet and the balance', async () => {
    let walletCalls = 0;
    let balanceCalls = 0;
    let synced = false;
    server.use(
      on('getCryptoDeposit', () => {
        walletCalls += 1;
        return ok('getCryptoDeposit', {
          status: true,
          details: makeWalletDetails({ balance: synced ? 175.5 : 150.5 }),
          data: { data: [] },
        });
      }),
      on('getBalance', () => {
        balanceCalls += 1;
        return ok('getBalance', { status: true, data: { payInBalance: 125.5 } });
      }),
      on('syncBalance', () => {
        synced = true;
        return ok('syncBalance', {
          status: true,
          balance: 175.5,
          is_new: true,
          msg: 'New Deposit Found !!',
        });
      }),
    );
    const { user } = await renderWallet();
    await screen.findByTestId('wallet-balance');
    const before = { walletCalls, balanceCalls };
    await user.click(screen.getByRole('button', { name: 'Check Balance' }));
    expect(await screen.findByText('New Deposit Found !!')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('wallet-balance')).toHaveTextContent('175.50'));
    expect(walletCalls).toBe(before.walletCalls + 1);
    await waitFor(() => expect(balanceCalls).toBeGreaterThan(before.balanceCalls));
  });

  test('Check Balance offline says so, and the session stays', async () => {
    const { user, store } = await renderWallet();
    await screen.findByTestId('wallet-balance');
    const online = jest.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await user.click(screen.getByRole('button', { name: 'Check Balance' }));
    expect(
      await screen.findByText('You are offline. Please check your connection.'),
    ).toBeInTheDocument();
    expect(store.getState().session.authToken).not.toBe('');
    online.mockRestore();
  });

  test('Check Balance without news tells so and reloads nothing', async () => {
    let walletCalls = 0;
    server.use(
      on('getCryptoDeposit', () => {
        walletCalls += 1;
        return ok('getCryptoDeposit', fixtures.getCryptoDeposit);
      }),
    );
    const { user } = await renderWallet();
    await screen.findByTestId('wallet-balance');
    await user.click(screen.getByRole('button', { name: 'Check Balance' }));
    expect(await screen.findByText('No new deposit found')).toBeInTheDocument();
    expect(walletCalls).toBe(1);
  });

  test('a failed sync shows the server message', async () => {
    refuse(
      'syncBalance',
      503,
      'The blockchain could not be reached. Please try again in a minute.',
    );
    const { user } = await renderWallet();
    await user.click(await screen.findByRole('button', { name: 'Check Balance' }));
    expect(
      await screen.findByText('The blockchain could not be reached. Please try again in a minute.'),
    ).toBeInTheDocument();
    // The toast and the button are drawn by separate renders: the button may follow it.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Check Balance' })).toBeEnabled(),
    );
  });
});
