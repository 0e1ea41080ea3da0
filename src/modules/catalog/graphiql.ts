// GraphiQL tabs: the partner catalog, and a tour of the affiliate surface.
import { DEMO_KEYS } from '../../auth/demoIdentities';
import type { GraphiqlTab } from '../../graphql/graphiql';

export const GRAPHIQL_TABS: GraphiqlTab[] = [
  {
    title: 'PartnerCatalog',
    headers: { 'x-api-key': DEMO_KEYS.partner },
    query: `# Partner catalog (GET /api/partner/*): a partner key
# in x-api-key (Headers below). Run one operation at a time
# with the play button.

query PartnerCatalog {
  partnerBrands(limit: 5) {
    data { id name slug categories isExclusive websiteUrl }
    meta { total page limit totalPages }
  }
}

query PartnerCampaigns {
  partnerCampaigns(types: [Offer, GenericCoupon], status: [onTime], limit: 5) {
    data { id name type offerType status period { startAt endAt } organization { id name } }
    meta { total page limit totalPages }
  }
}

query PartnerOrganizations {
  partnerOrganizations(search: "a", limit: 10) {
    data { id name slug logoUrl }
    meta { total page totalPages }
  }
}
`,
  },
  {
    title: 'AffiliateSurface',
    headers: { 'x-api-key': DEMO_KEYS.affiliate },
    query: `# Affiliate surface (GET /affiliate/*): an affiliate key
# in x-api-key (Headers below). Run one operation at a time
# with the play button.

query AffiliateSurface {
  affiliateCampaigns(types: [Offer], offerType: [Url], limit: 5) {
    data { id name type offerType shortUrl commission { type value } organization { name } }
    meta { total page limit totalPages }
  }
}

query AffiliateBrands {
  affiliateBrands(limit: 5) {
    data { id name isFavorite shortUrl commission { type value } channels { id name } }
    pagination { page limit total totalPages }
  }
}

query MyOrders {
  affiliateOrders(status: [APPROVED, PAID], limit: 5) {
    data { id orderNumber status currency transactionValue earnings orderedAt }
    meta { total page limit totalPages }
  }
}

query MyShortLinks {
  affiliateShortUrls(limit: 5) {
    data { urlCode shortUrl originalUrl linkType count active }
    meta { total }
  }
}

# A brand-page link (POST /affiliate/shortener/url): made
# once, the same call returns it again.
mutation LinkToBrand($organizationId: UUID!) {
  createShortUrl(organizationId: $organizationId) {
    data { urlCode shortUrl originalUrl linkType }
  }
}
`,
    variables: { organizationId: '<a brand id from AffiliateBrands>' },
  },
];
