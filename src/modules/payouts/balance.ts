// What an order's earnings count as in its affiliate's balance. The database decides it
// ("order_is_payable", "order_balance_state", migration payouts) and keeps the balance from it;
// these are the same rules in TypeScript, the one place the service says them.
import type { BalanceState, OrderStatus, PayoutStatus } from '../../generated/prisma/client';

/** The balance states in their order along an order's way to being paid. */
export const BALANCE_STATES = [
  'PENDING',
  'APPROVED',
  'AVAILABLE',
  'IN_PAYMENT',
  'PAID',
] as const satisfies readonly BalanceState[];

/** Payout statuses that hold their orders: an order is in at most one payout of these. */
export const HOLDING_PAYOUT_STATUSES = [
  'SCHEDULED',
  'PROCESSING',
  'PAID',
] as const satisfies readonly PayoutStatus[];

/** Payout statuses whose orders are on their way: the balance's "in payment". */
export const IN_PAYMENT_STATUSES = [
  'SCHEDULED',
  'PROCESSING',
] as const satisfies readonly PayoutStatus[];

/** An order's fields its balance state depends on. */
type BalancedOrder = { status: OrderStatus; lockedAt: Date | null };

/** Whether an order can be paid: approved and locked (SQL: "order_is_payable"). */
export function isPayable(order: BalancedOrder): boolean {
  return order.status === 'APPROVED' && order.lockedAt !== null;
}

/**
 * The state an order's earnings count in, given the status of the payout holding it (null for
 * none); null for an order in no balance (REJECTED). SQL: "order_balance_state".
 */
export function balanceStateOf(
  order: BalancedOrder,
  payoutStatus: PayoutStatus | null,
): BalanceState | null {
  switch (order.status) {
    case 'PENDING':
      return 'PENDING';
    case 'PAID':
      return 'PAID';
    case 'REJECTED':
      return null;
    default:
      if (payoutStatus === 'SCHEDULED' || payoutStatus === 'PROCESSING') return 'IN_PAYMENT';
      return isPayable(order) ? 'AVAILABLE' : 'APPROVED';
  }
}
