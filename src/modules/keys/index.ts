// API key management for the dashboard (x-api-token): list, create, rotate, revoke a user's keys.
import type { FeatureModule } from '../feature';
import { GRAPHIQL_TABS } from './graphiql';
import './schema';

export const keys: FeatureModule = { name: 'keys', graphiqlTabs: GRAPHIQL_TABS };
