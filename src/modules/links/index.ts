// Short links: made through the shortener or on first need for a Url offer, followed through the
// public redirect, which counts clicks (sub-IDs included) into the rollups the reports read; its
// worker deletes the sub-ID click rollups past their history.
import type { FeatureModule } from '../feature';
import './catalogLinks';
import { redirectDocumentation } from './openapi';
import { REDIRECT_PREFIX, redirectAnswer } from './redirect';
import './schema';
import { subIdHistoryWorker } from './subIdHistory';

export const links: FeatureModule = {
  name: 'links',
  routes: [
    {
      method: 'POST',
      path: '/affiliate/shortener/url',
      field: 'Mutation.createShortUrl',
      responseStatus: 201,
    },
    { method: 'GET', path: '/affiliate/shortener/urls', field: 'Query.affiliateShortUrls' },
    { method: 'GET', path: '/affiliate/shortener/urls/:urlCode', field: 'Query.affiliateShortUrl' },
  ],
  edgeRoutes: [
    { prefix: REDIRECT_PREFIX, template: `${REDIRECT_PREFIX}{code}`, makeAnswer: redirectAnswer },
  ],
  openApi: redirectDocumentation,
  workers: [subIdHistoryWorker],
};
