import type { AffiliateScope } from './scopes';

/**
 * The service itself reading on an affiliate's behalf, outside any request (an order for its
 * webhook): allowed what a key of that affiliate holding `scopes` is allowed, and named in place of
 * a key.
 */
export interface ServiceIdentity {
  service: string;
  affiliateId: string;
  scopes: ReadonlySet<AffiliateScope>;
}
