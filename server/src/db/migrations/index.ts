import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation';
import * as m0002 from './0002_domain';
import * as m0020 from './0020_portal';
import * as m0030 from './0030_money';
import * as m0040 from './0040_login_failures';
import * as m0050 from './0050_jobs';
import * as m0055 from './0055_login_failure_ids';
import * as m0060 from './0060_rate_limits';
import * as m0070 from './0070_gateway_abilities';
import * as m0080 from './0080_gateway_methods';
import * as m0090 from './0090_gateway_deposits';
import * as m0120 from './0120_account_events';
import * as m0130 from './0130_chain_assets';
import * as m0140 from './0140_gateway_usage';
import * as m0150 from './0150_webhooks';
import * as m0160 from './0160_webhook_event_feed';
import * as m0170 from './0170_signer';
import * as m0180 from './0180_withdrawals';
import * as m0210 from './0210_subscription_proration';
import * as m0230 from './0230_maintained_counts';
import * as m0240 from './0240_owner_changes';
import * as m0250 from './0250_kept_reads';
import * as m0260 from './0260_derived_owner_triggers';
import * as m0270 from './0270_owner_lookups_once';
import * as m0280 from './0280_api_logs_one_index_less';
import * as m0290 from './0290_deposit_waiting_reason';
import * as m0300 from './0300_signer_request_macs';
import * as m0310 from './0310_withdrawal_waiting_reason';
import * as m0400 from './0400_invoices';
import * as m0410 from './0410_invoice_counts_once';
import * as m0420 from './0420_invoice_owner_triggers';
import * as m0430 from './0430_payment_links';
import * as m0440 from './0440_app_logos';
import * as m0450 from './0450_refunds';
import * as m0460 from './0460_watch_cursor_time';
import * as m0470 from './0470_signer_plan_ends';
import * as m0480 from './0480_account_address_lookup';
import * as m0490 from './0490_withdrawal_finality';
import * as m0500 from './0500_stray_payments';
import * as m0510 from './0510_invoice_payment_credit';
import * as m0520 from './0520_sweep_finality';
import * as m0530 from './0530_deposit_flag';
import * as m0540 from './0540_test_mode';
import * as m0550 from './0550_job_wakeups';
import * as m0560 from './0560_derivation_floors';
import * as m0570 from './0570_local_chain_reorgs';
import * as m0580 from './0580_account_archives';
import * as m0590 from './0590_address_pool';
import * as m0600 from './0600_job_leases_index';
import * as m0610 from './0610_job_groups';
import * as m0620 from './0620_derivation_counters';
import * as m0630 from './0630_table_changes';
import * as m0640 from './0640_local_heads';
import * as m0650 from './0650_own_channels';
import * as m0660 from './0660_own_notices';
import * as m0670 from './0670_app_event_seqs';
import * as m0680 from './0680_payment_link_index';
import * as m0690 from './0690_inserts_noted_with';
import * as m0700 from './0700_api_logs_app_checked_per_batch';
import * as m0710 from './0710_statement_refusals';
import * as m0720 from './0720_events_app_index';

// Add a feature migration: create `000N_<name>.ts` exporting up/down and add one line here.
// Keys sort lexicographically, so keep the zero-padded prefix.
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_domain': m0002,
  '0020_portal': m0020,
  '0030_money': m0030,
  '0040_login_failures': m0040,
  '0050_jobs': m0050,
  '0055_login_failure_ids': m0055,
  '0060_rate_limits': m0060,
  '0070_gateway_abilities': m0070,
  '0080_gateway_methods': m0080,
  '0090_gateway_deposits': m0090,
  '0120_account_events': m0120,
  '0130_chain_assets': m0130,
  '0140_gateway_usage': m0140,
  '0150_webhooks': m0150,
  '0160_webhook_event_feed': m0160,
  '0170_signer': m0170,
  '0180_withdrawals': m0180,
  '0210_subscription_proration': m0210,
  '0230_maintained_counts': m0230,
  '0240_owner_changes': m0240,
  '0250_kept_reads': m0250,
  '0260_derived_owner_triggers': m0260,
  '0270_owner_lookups_once': m0270,
  '0280_api_logs_one_index_less': m0280,
  '0290_deposit_waiting_reason': m0290,
  '0300_signer_request_macs': m0300,
  '0310_withdrawal_waiting_reason': m0310,
  '0400_invoices': m0400,
  '0410_invoice_counts_once': m0410,
  '0420_invoice_owner_triggers': m0420,
  '0430_payment_links': m0430,
  '0440_app_logos': m0440,
  '0450_refunds': m0450,
  '0460_watch_cursor_time': m0460,
  '0470_signer_plan_ends': m0470,
  '0480_account_address_lookup': m0480,
  '0490_withdrawal_finality': m0490,
  '0500_stray_payments': m0500,
  '0510_invoice_payment_credit': m0510,
  '0520_sweep_finality': m0520,
  '0530_deposit_flag': m0530,
  '0540_test_mode': m0540,
  '0550_job_wakeups': m0550,
  '0560_derivation_floors': m0560,
  '0570_local_chain_reorgs': m0570,
  '0580_account_archives': m0580,
  '0590_address_pool': m0590,
  '0600_job_leases_index': m0600,
  '0610_job_groups': m0610,
  '0620_derivation_counters': m0620,
  '0630_table_changes': m0630,
  '0640_local_heads': m0640,
  '0650_own_channels': m0650,
  '0660_own_notices': m0660,
  '0670_app_event_seqs': m0670,
  '0680_payment_link_index': m0680,
  '0690_inserts_noted_with': m0690,
  '0700_api_logs_app_checked_per_batch': m0700,
  '0710_statement_refusals': m0710,
  '0720_events_app_index': m0720,
};
