/** Tables of gift vouchers (migration 0071). Money integer pence, times epoch seconds. */
import type { Selectable } from 'kysely';
import type { WithDefault } from './columns.ts';

export interface GiftVoucherSettingsTable {
  educator_id: string;
  /** 1: gift vouchers are on sale (the spec's `vouchers_app_installed`). */
  enabled: WithDefault<number>;
  /** Pence, comma-separated ('' for none). */
  fixed_amounts: WithDefault<string>;
  custom_min: number | null;
  custom_max: number | null;
  expiry_months: WithDefault<number>;
  design_colour: string | null;
  updated_at: number;
  /** Raised by every admin save (migration 0260). */
  revision: WithDefault<number>;
}

export interface GiftCardsTable {
  id: string;
  educator_id: string;
  code: string;
  amount: number;
  balance: number;
  currency: WithDefault<string>;
  checkout_id: string | null;
  buyer_user_id: string | null;
  buyer_name: string;
  buyer_email: string;
  recipient_name: string;
  /** Lower case. */
  recipient_email: string;
  message: WithDefault<string>;
  send_at: number;
  /** When the recipient's e-mail was queued to go (the outbox sends it at send_at); null before. */
  recipient_sent_at: number | null;
  expires_at: number;
  design_colour: string | null;
  payment_method: string | null;
  payment_id: string | null;
  /** What the buyer paid (the amount, plus fees when the educator does not absorb them). */
  total_paid: WithDefault<number>;
  created_at: number;
}

export type GiftRedemptionStatus = 'held' | 'committed' | 'released' | 'returned';

export interface GiftCardRedemptionsTable {
  id: string;
  gift_card_id: string;
  checkout_id: string;
  amount: number;
  status: GiftRedemptionStatus;
  expires_at: number;
  outcome_kind: string | null;
  outcome_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface GiftTables {
  gift_voucher_settings: GiftVoucherSettingsTable;
  gift_cards: GiftCardsTable;
  gift_card_redemptions: GiftCardRedemptionsTable;
}

export type GiftCardRow = Selectable<GiftCardsTable>;
export type GiftRedemptionRow = Selectable<GiftCardRedemptionsTable>;
