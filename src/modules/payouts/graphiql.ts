// The GraphiQL tab of balances and payouts.
import { DEMO_KEYS } from '../../auth/demoIdentities';
import type { GraphiqlTab } from '../../graphql/graphiql';

export const GRAPHIQL_TABS: GraphiqlTab[] = [
  {
    title: 'Payouts',
    headers: { 'x-api-key': DEMO_KEYS.affiliate },
    query: `# Balance and payouts (scope payouts:read). Per currency:
# pending, approved, available (payable, in no payout),
# in payment (in a scheduled or processing payout) and
# paid; paidInPeriod: payouts paid in the last 30 days.
# Then the payouts, newest first, each with the orders it
# pays (their amounts add up to the payout's).
query Payouts {
  affiliateBalance {
    data {
      currency
      pending { amount orders }
      approved { amount orders }
      available { amount orders }
      inPayment { amount orders }
      paid { amount orders }
      paidInPeriod { amount payouts }
    }
    count
  }
  affiliatePayouts(limit: 3) {
    data { id status currency amount orders periodStart periodEnd paidAt method reference }
    meta { total }
  }
}

# One payout's orders: affiliatePayoutItems(payoutId: "<id>")
# { data { orderNumber organizationName amount } }
`,
  },
];
