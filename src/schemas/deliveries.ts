// A check's deliveries: the read shape.

import { Type } from 'typebox';
import { NullableString } from './common.ts';

export const DeliveryRead = Type.Object({
  deliveryId: Type.String(),
  channel: Type.String(),
  recipient: Type.String(),
  status: Type.String({ description: 'queued, sending, sent or failed' }),
  attempts: Type.Integer(),
  lastError: NullableString(),
  createdAt: Type.String(),
  sentAt: NullableString(),
});

export const ListDeliveriesResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ deliveries: Type.Array(DeliveryRead) }),
});
