// A check's attachments: path parameters and the read shape.
import { Type } from 'typebox';

export const AttachmentRead = Type.Object({
  attachmentId: Type.String(),
  filename: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  createdAt: Type.String(),
});

export const CheckAttachmentParams = Type.Object({
  checkId: Type.String({ minLength: 1, maxLength: 200 }),
  attachmentId: Type.String({ minLength: 1, maxLength: 200 }),
});

export const CreateAttachmentResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: AttachmentRead,
});

export const ListAttachmentsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ attachments: Type.Array(AttachmentRead) }),
});

export const AttachmentResponse = Type.Object({ success: Type.Literal(true), data: AttachmentRead });
