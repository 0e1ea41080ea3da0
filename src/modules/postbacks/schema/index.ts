// Postbacks for the dashboard (GraphQL, `x-api-token`, affiliate users): the postbacks, their
// presets, deliveries with the requests sent, redelivery, replay and test sends. Sending is the
// outbox's dispatcher's work (src/modules/postbacks/lane.ts).
import './types';
import './queries';
import './mutations';
