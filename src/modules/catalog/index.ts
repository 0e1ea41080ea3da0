// The catalog: brands (organizations), campaigns (offers and coupons) and products of visible
// brands, and the affiliate's channels; the partner surface reads it as it is, the affiliate
// surface with the affiliate's context.
import type { FeatureModule } from '../feature';
import './affiliateBrands';
import './brands';
import './campaigns';
import './channels';
import { GRAPHIQL_TABS } from './graphiql';
import './products';

export const catalog: FeatureModule = {
  name: 'catalog',
  routes: [
    { method: 'GET', path: '/api/partner/organizations', field: 'Query.partnerOrganizations' },
    { method: 'GET', path: '/api/partner/brands', field: 'Query.partnerBrands' },
    { method: 'GET', path: '/api/partner/brands/:brandId', field: 'Query.partnerBrand' },
    { method: 'GET', path: '/api/partner/campaigns', field: 'Query.partnerCampaigns' },
    { method: 'GET', path: '/api/partner/campaigns/:campaignId', field: 'Query.partnerCampaign' },
    { method: 'GET', path: '/affiliate/brands', field: 'Query.affiliateBrands' },
    { method: 'GET', path: '/affiliate/brands/:brandId', field: 'Query.affiliateBrand' },
    { method: 'GET', path: '/affiliate/channels', field: 'Query.affiliateChannels' },
    { method: 'GET', path: '/affiliate/channels/:channelId', field: 'Query.affiliateChannel' },
    // A GET that may write: a Url offer's short link is made on first need (the links module).
    { method: 'GET', path: '/affiliate/campaigns', field: 'Query.affiliateCampaigns' },
    { method: 'GET', path: '/affiliate/campaigns/:campaignId', field: 'Query.affiliateCampaign' },
    { method: 'GET', path: '/affiliate/coupons', field: 'Query.affiliateCoupons' },
    // Removed (contract, Versioning 4): answers 410 pointing to /affiliate/campaigns?types=Offer.
    { method: 'GET', path: '/affiliate/offers', field: 'Query.affiliateOffers' },
    { method: 'GET', path: '/affiliate/products', field: 'Query.affiliateProducts' },
  ],
  graphiqlTabs: GRAPHIQL_TABS,
};
