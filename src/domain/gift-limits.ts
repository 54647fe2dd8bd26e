/** Gift voucher limits and shapes the checkout screen needs without the rules' dependencies (src/domain/gifts.ts). */
export const MAX_GIFT_MESSAGE = 500;

export interface GiftDetails {
  buyerName: string;
  buyerEmail: string;
  recipientName: string;
  recipientEmail: string;
  message: string;
  /** YYYY-MM-DD, London. */
  sendDate: string;
}
