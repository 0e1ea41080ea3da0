// Key management for the dashboard (GraphQL, `x-api-token`): list, create, rotate, revoke, and the
// audit trail. The full key is answered once, by create and rotate; only hashes are stored.
import './types';
import './queries';
import './mutations';
