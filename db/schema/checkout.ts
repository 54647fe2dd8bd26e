/** Tables of the checkout area: checkouts, holds, bookings, orders, requests, payments (migration 0004). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CheckoutTables {}
