// The GraphiQL tab of balances and payouts.
import { DEMO_KEYS } from '../../auth/demoIdentities';
import type { GraphiqlTab } from '../../graphql/graphiql';

export const GRAPHIQL_TABS: GraphiqlTab[] = [
  {
    title: 'Payouts',
    headers: { 'x-api-key': DEMO_KEYS.affiliate },
    query: `# Balance, ledger and payouts (scope payouts:read). Per
# currency: pending, approved, available (payable, in no
# payout; negative after clawbacks), in payment, paid and
# held; paidInPeriod: payouts paid in the last 30 days;
# the minimum payout, the next payout date, and in words
# what happens to the available money.
# Then the ledger entries beside the orders (bonuses, pay
# per click, credits, debits, clawbacks), and the payouts,
# newest first; a payout's items are the orders and
# entries it pays (they add up to the payout's amount).
query Payouts {
  affiliateBalance {
    data {
      currency
      pending { amount orders }
      approved { amount orders }
      available { amount orders entries }
      inPayment { amount orders entries }
      paid { amount orders entries }
      held { amount orders entries }
      paidInPeriod { amount payouts }
      minimumPayout
      nextPayoutAt
      payoutNote
    }
    count
  }
  affiliateEarnings(limit: 5) {
    data { kind amount currency reason orderId state payoutId earnedAt }
    meta { total }
  }
  affiliatePayouts(limit: 3) {
    data { id status currency amount orders periodStart periodEnd paidAt method reference }
    meta { total }
  }
}

# One payout's lines: affiliatePayoutItems(payoutId: "<id>")
# { data { kind orderNumber reason amount } }
`,
  },
];
