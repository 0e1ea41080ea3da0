// Campaigns: the shared interface and filter, the partner view and the affiliate view.
export * from './common';
import './partner';
import './affiliate';
import './coupons';
