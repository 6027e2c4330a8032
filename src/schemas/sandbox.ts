// The sandbox inbox: the read shape of a message a test key sent.

import { Type } from 'typebox';
import { Meta, NullableString } from './common.ts';

export const SandboxMessageRead = Type.Object({
  messageId: Type.String(),
  deliveryId: Type.String(),
  checkId: NullableString(),
  channel: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  html: Type.String(),
  link: Type.String(),
  attachments: Type.Array(Type.String()),
  createdAt: Type.String(),
});

export const ListSandboxMessagesResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ meta: Meta, messages: Type.Array(SandboxMessageRead) }),
});
