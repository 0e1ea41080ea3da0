// Order webhooks for the dashboard (GraphQL, `x-api-token`, affiliate users): endpoints, their
// signing secrets (answered once), deliveries and their attempts, redelivery, test events, and the
// audit trail. Sending is src/webhooks' work.
import './types';
import './queries';
import './mutations';
