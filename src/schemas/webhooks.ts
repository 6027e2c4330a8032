// Webhook endpoints: the body, the read shape and the delivery path parameters.
import { Type } from 'typebox';
import { EVENT_TYPES } from '../domain/event-types.ts';
import { NullableInteger, NullableString } from './common.ts';

export const WebhookRead = Type.Object({
  webhookId: Type.String(),
  url: Type.String(),
  secret: Type.String({ description: 'HMAC-SHA256 key of the Signature headers.' }),
  events: Type.Array(Type.String()),
  createdAt: Type.String(),
});

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2000 }),
    events: Type.Optional(
      Type.Array(Type.Union(EVENT_TYPES.map((e) => Type.Literal(e))), {
        minItems: 1,
        maxItems: EVENT_TYPES.length,
        'x-message': `must name events among ${EVENT_TYPES.join(', ')}`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const DeliveryParams = Type.Object({
  webhookId: Type.String({ minLength: 1, maxLength: 200 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 200 }),
});

export const CreateWebhookResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: WebhookRead,
});

export const ListWebhooksResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ webhooks: Type.Array(WebhookRead) }),
});

export const ListWebhookDeliveriesResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    deliveries: Type.Array(
      Type.Object({
        deliveryId: Type.String(),
        eventId: Type.String(),
        eventType: Type.String(),
        status: Type.String(),
        attempts: Type.Integer(),
        responseStatus: NullableInteger(),
        lastError: NullableString(),
        createdAt: Type.String(),
        sentAt: NullableString(),
      }),
    ),
  }),
});
