// What an order's earnings, or a ledger entry, count as in its affiliate's balance. The database
// decides it ("order_is_payable", "order_balance_state", "earning_balance_state", migrations
// payouts and ledger) and keeps the balance from it; these are the same rules in TypeScript, for
// the answers that show a state. test/database-twins.test.ts checks that each pair agrees.
import type {
  BalanceState,
  HoldReason,
  OrderStatus,
  PayoutStatus,
} from '../../generated/prisma/client';

/** The balance states in their order along the way to being paid, and held money last. */
export const BALANCE_STATES = [
  'PENDING',
  'APPROVED',
  'AVAILABLE',
  'IN_PAYMENT',
  'PAID',
  'HELD',
] as const satisfies readonly BalanceState[];

/** Payout statuses whose items are on their way: the balance's "in payment". */
const IN_PAYMENT_STATUSES = ['SCHEDULED', 'PROCESSING'] as const satisfies readonly PayoutStatus[];

const inPayment = (payoutStatus: PayoutStatus | null) =>
  (IN_PAYMENT_STATUSES as readonly (PayoutStatus | null)[]).includes(payoutStatus);

/** An order's fields its balance state depends on. */
type BalancedOrder = { status: OrderStatus; lockedAt: Date | null; heldReason: HoldReason | null };

/** Whether an order can be paid: approved, locked and not held (SQL: "order_is_payable"). */
export function isPayable(order: BalancedOrder): boolean {
  return order.status === 'APPROVED' && order.lockedAt !== null && order.heldReason === null;
}

/**
 * The state an order's earnings count in, given the status of the payout holding it (null for
 * none); null for an order in no balance (REJECTED). SQL: "order_balance_state".
 */
export function balanceStateOf(
  order: BalancedOrder,
  payoutStatus: PayoutStatus | null,
): BalanceState | null {
  if (order.status === 'PAID') return 'PAID';
  if (order.status === 'REJECTED') return null;
  if (order.heldReason !== null) return 'HELD';
  if (order.status === 'PENDING') return 'PENDING';
  if (inPayment(payoutStatus)) return 'IN_PAYMENT';
  return isPayable(order) ? 'AVAILABLE' : 'APPROVED';
}

/**
 * The state a ledger entry counts in, given the status of the payout holding it (null for none):
 * an entry is payable once written, unless held. SQL: "earning_balance_state".
 */
export function entryBalanceStateOf(
  entry: { heldReason: HoldReason | null },
  payoutStatus: PayoutStatus | null,
): BalanceState {
  if (payoutStatus === 'PAID') return 'PAID';
  if (inPayment(payoutStatus)) return 'IN_PAYMENT';
  return entry.heldReason === null ? 'AVAILABLE' : 'HELD';
}

/**
 * The payout that holds an order or a ledger entry, by its item's `heldOrderId` or
 * `heldEarningId` (set while the payout is under way or paid), as a Prisma select.
 */
export const payoutHolding = <Held extends 'heldOrderId' | 'heldEarningId'>(held: Held) =>
  ({
    payoutItems: {
      where: { [held]: { not: null } } as Record<Held, { not: null }>,
      select: { payout: { select: { id: true, status: true, paidAt: true } } },
      take: 1,
    },
  }) as const;
