// Events caused on request, as `stripe trigger` causes Stripe's: a development installation's
// `triggerEvent` and `npm run trigger` write orders as the back office does, so the outbox, the
// webhooks and postbacks it feeds and the rollups all follow. Absent in production and with
// KEY_ENV=live.
import type { FeatureModule } from '../feature';
import './schema';

export const trigger: FeatureModule = { name: 'trigger' };
