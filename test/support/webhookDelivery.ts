// Webhooks delivered for real in a test file: a receiver on 127.0.0.1 and the service's dispatcher
// sending to it (private URLs allowed for the file's run), and endpoints of a user at the receiver.
import { signDashboardToken } from '../../src/auth/dashboardToken';
import { config } from '../../src/platform/config';
import type { Dispatcher } from '../../src/outbox/dispatcher';
import { startWebhookDispatcher } from '../../src/modules/webhooks/webhookLane';
import { eventAnswersOf } from '../../src/modules/webhooks/eventAnswers';
import { app, graphql } from './app';
import { startReceiver, type Receiver } from './webhookReceiver';

/** The receiver and dispatcher of the enclosing block's tests, started before and stopped after. */
export function useWebhookDelivery(): { receiver: Receiver } {
  const delivery = {} as { receiver: Receiver };
  let dispatcher: Dispatcher;
  const allowPrivateUrls = config.webhookAllowPrivateUrls;

  beforeAll(async () => {
    Object.assign(config, { webhookAllowPrivateUrls: true });
    delivery.receiver = await startReceiver();
    dispatcher = startWebhookDispatcher(eventAnswersOf(app.runRoute), {
      pollIntervalMs: 200,
      leaseS: 30,
      retryDelaysS: [1, 1],
      disableAfterS: 3600,
      allowPrivateUrls: true,
    });
  });

  afterAll(async () => {
    await dispatcher.stop();
    await delivery.receiver.close();
    Object.assign(config, { webhookAllowPrivateUrls: allowPrivateUrls });
  });

  return delivery;
}

/** An endpoint of the user at the receiver's `path`, subscribed to `events`; the receiver verifies its signatures. */
export async function subscribeAtReceiver(
  receiver: Receiver,
  userId: string,
  path: string,
  events: readonly string[],
): Promise<void> {
  const { body } = await graphql(
    `
      mutation ($input: CreateWebhookEndpointInput!) {
        createWebhookEndpoint(input: $input) {
          secret
        }
      }
    `,
    { input: { url: `${receiver.url}${path}`, events } },
    { token: await signDashboardToken(userId), idempotencyKey: `endpoint-${path}` },
  );
  receiver.secrets.push(body.data.createWebhookEndpoint.secret);
}
