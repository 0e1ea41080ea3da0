// Order webhooks for the dashboard (GraphQL, `x-api-token`, affiliate users): endpoints, their
// signing secrets (answered once), deliveries and their attempts, redelivery, test events, and the
// audit trail. Sending is the outbox dispatcher's work (src/outbox/dispatcher.ts).
import './types';
import './queries';
import './mutations';
