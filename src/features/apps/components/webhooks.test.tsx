import { screen, within } from '@testing-library/react';
import { toast } from '../../../components/toast';
import { IPN_LOG, makeApp, makeAppDetails, makePage } from '../../../../test/factories/apps';
import { makeDelivery, WEBHOOK_SECRET } from '../../../../test/factories/webhooks';
import { fail, ok, on, reply } from '../../../../test/msw/contract';
import { server } from '../../../../test/msw/server';
import { renderOnRoute, SIGNED_IN } from '../../../../test/renderWithProviders';
import type { AppDetails } from '../../../api/apps';
import AppDetailPage from '../AppDetailPage';

// IPN Logs as real deliveries (status, HTTP code, attempts, View Details, Redeliver) and
// Merchant Setting's webhook part (secret shown once, test event, the 410 switch).

function renderTab(tab: string, details: AppDetails = makeAppDetails()) {
  server.use(reply('getAppDetails', { status: true, data: details }));
  return renderOnRoute('/app/my-app/:id/:tab?', <AppDetailPage />, {
    session: SIGNED_IN,
    route: `/app/my-app/app_1/${tab}`,
  });
}

describe('IPN Logs', () => {
  test('list deliveries with status, HTTP code and attempts', async () => {
    renderTab(
      'ipn-logs',
      makeAppDetails({
        callback_data: makePage('callback_data', [
          IPN_LOG,
          {
            ...IPN_LOG,
            id: 'whd_2',
            event: 'deposit.pending',
            status: 'retrying',
            http_code: 503,
            attempts: 2,
          },
        ]),
      }),
    );
    const rows = await screen.findAllByRole('row');
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Client Id', 'Event', 'Time', 'Status', 'HTTP', 'Attempts', 'Action']);
    expect(within(rows[1] as HTMLElement).getByText('Delivered')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText('Retrying')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText('503')).toBeInTheDocument();
  });

  test('View Details shows the payload, every attempt and the headers; Redeliver sends it again', async () => {
    const redelivered: string[] = [];
    server.use(
      on('redeliverWebhook', ({ params }) => {
        redelivered.push(String(params.id));
        return ok('redeliverWebhook', {
          status: true,
          msg: 'Redelivery delivered (HTTP 200)',
          data: makeDelivery({ delivery: { ...IPN_LOG, id: 'whd_2', redelivery: true } }),
        });
      }),
    );
    const { user } = renderTab('ipn-logs');
    await user.click(await screen.findByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog', { name: /deposit\.confirmed/ });
    const payload = within(dialog).getByRole('region', { name: 'Log data' });
    expect(payload).toHaveTextContent('"id": "evt_1"');
    // A long payload scrolls in its box: a keyboard can reach it.
    payload.focus();
    expect(payload).toHaveFocus();
    expect(await within(dialog).findByText('upstream down')).toBeInTheDocument();
    expect(within(dialog).getByText('http_error')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Request headers')).toHaveTextContent(
      'webhook-signature: v1,3xmHcJzKX2kWJ3S7YwJbBqvL1Vq8m7fJk0w9eU0oCmU=',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Redeliver' }));
    const outcome = await within(dialog).findByRole('status');
    expect(outcome).toHaveTextContent('Redelivery delivered (HTTP 200)');
    expect(outcome).toHaveClass('alert-success');
    expect(redelivered).toEqual(['whd_1']);
    expect(await within(dialog).findByText('Redelivery')).toBeInTheDocument();
  });

  test('View Details says when retention pruned the payload, and offers no Redeliver', async () => {
    const pruned = { ...IPN_LOG, data: '', pruned: true };
    server.use(
      reply('getWebhookDelivery', {
        status: true,
        msg: 'delivered',
        data: makeDelivery({ delivery: pruned }),
      }),
    );
    const { user } = renderTab(
      'ipn-logs',
      makeAppDetails({ callback_data: makePage('callback_data', [pruned]) }),
    );
    await user.click(await screen.findByRole('button', { name: 'View Details' }));
    const dialog = await screen.findByRole('dialog', { name: /deposit\.confirmed/ });
    // The attempts are still listed (once the delivery is read: its spinner is a status too).
    expect(await within(dialog).findByText('http_error')).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'The payload was pruned: request and response bodies are removed after the retention period, so this delivery cannot be redelivered.',
    );
    expect(within(dialog).queryByLabelText('Log data')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Redeliver' })).toBeDisabled();
  });
});

describe('Merchant Setting: webhook', () => {
  test('shows a new secret once and sends a test event with its outcome', async () => {
    server.use(
      reply('getWebhookSettings', {
        status: true,
        data: {
          has_secret: false,
          secret_created_at: null,
          previous_valid_until: null,
          disabled_at: null,
          disabled_reason: null,
        },
      }),
    );
    const { user } = renderTab(
      'merchant-setting',
      makeAppDetails({
        app_data: makeApp({ status: 1, callback_url: 'https://shop.example.com/hooks' }),
      }),
    );
    expect(await screen.findByText('No signing secret yet.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create secret' }));
    expect(await screen.findByDisplayValue(WEBHOOK_SECRET)).toBeInTheDocument();
    expect(screen.getByText(/shown only once/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send test event' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Test event delivered (HTTP 200)');
  });

  test('a test event that is not delivered says so in a warning, not in a success toast', async () => {
    const success = jest.spyOn(toast, 'success');
    server.use(
      reply('sendTestWebhook', {
        status: true,
        msg: 'Test event not delivered (HTTP 500); it will be retried',
        data: makeDelivery({
          delivery: { ...IPN_LOG, event: 'test.ping', status: 'retrying', http_code: 500 },
        }),
      }),
    );
    const { user } = renderTab(
      'merchant-setting',
      makeAppDetails({
        app_data: makeApp({ status: 1, callback_url: 'https://shop.example.com/hooks' }),
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Send test event' }));
    const outcome = await screen.findByRole('status');
    expect(outcome).toHaveTextContent('Test event not delivered (HTTP 500); it will be retried');
    expect(outcome).toHaveClass('alert-warning');
    // The answer was a success (200), but its message is no success.
    expect(success).not.toHaveBeenCalled();
    success.mockRestore();
  });

  test("a test event past the app's budget is toasted with when to try again", async () => {
    const message = 'An app may send 5 test events a minute; try again in 42 s.';
    server.use(on('sendTestWebhook', () => fail('sendTestWebhook', 429, message)));
    const { user } = renderTab(
      'merchant-setting',
      makeAppDetails({
        app_data: makeApp({ status: 1, callback_url: 'https://shop.example.com/hooks' }),
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Send test event' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send test event' })).toBeEnabled();
  });

  test('says when a 410 switched the webhook off, and switches it on', async () => {
    let on410 = true;
    server.use(
      on('getWebhookSettings', () =>
        ok('getWebhookSettings', {
          status: true,
          data: {
            has_secret: true,
            secret_created_at: '2026-11-01T09:00:00Z',
            previous_valid_until: null,
            disabled_at: on410 ? '2026-11-02T10:00:00Z' : null,
            disabled_reason: on410 ? 'The endpoint answered 410 Gone: webhook switched off.' : null,
          },
        }),
      ),
      on('switchWebhookOn', () => {
        on410 = false;
        return ok('switchWebhookOn', { status: true, msg: 'Webhook switched on' });
      }),
    );
    const { user } = renderTab('merchant-setting');
    expect(
      await screen.findByText(/The endpoint answered 410 Gone: webhook switched off\./),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Switch webhook on' }));
    expect(await screen.findByRole('button', { name: 'Rotate secret' })).toBeInTheDocument();
    await screen.findByText(/^Created /);
    expect(screen.queryByRole('button', { name: 'Switch webhook on' })).not.toBeInTheDocument();
  });
});
