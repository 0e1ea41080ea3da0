// The GraphiQL tab of the report by sub-ID.
import { DEMO_KEYS } from '../../auth/demoIdentities';
import type { GraphiqlTab } from '../../graphql/graphiql';

export const GRAPHIQL_TABS: GraphiqlTab[] = [
  {
    title: 'SubIds',
    headers: { 'x-api-key': DEMO_KEYS.affiliate },
    query: `# Sub-IDs: tag a follow of a short link with up to five
# values, /s/{urlCode}?sub1=newsletter&sub2=hero (1-100
# visible ASCII characters each). The brand gets them in the
# target URL and reports them back on the order.

# Clicks, orders, earnings, conversion rate and EPC per sub1
# value; subId null: clicks and orders without one.
query SubIds {
  affiliatePerformanceReport(groupBy: sub1, limit: 10) {
    data { subId currency clicks orders earnings conversionRate epc }
    meta { total }
  }
}

# The orders the brand reported with a value.
query OrdersOfSub1($sub1: String!) {
  affiliateOrders(sub1: $sub1, limit: 5) {
    data { id orderNumber status earnings sub1 sub2 orderedAt }
    meta { total }
  }
}
`,
    variables: { sub1: 'newsletter' },
  },
];
