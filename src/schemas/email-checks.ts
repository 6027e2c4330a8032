// POST /emailchecks: the request body.

import { type Static, Type } from 'typebox';
import { Flag, MAX_BATCH } from './common.ts';

// ---- email checks (spec "Email check request item") ----
export const EmailCheckItem = Type.Object(
  {
    checkId: Type.String({ minLength: 1, maxLength: 64 }),
    payeeEmail: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    enableSmsInform: Flag,
    payeePhone: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    // 0/1 as the spec writes it; "0"/"1" and true/false as clients in the field send it.
    sendAttachment: Type.Optional(
      Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal('0'), Type.Literal('1'), Type.Boolean()], {
        'x-message': 'must be 0 or 1 (or true or false)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const EmailChecksBody = Type.Object(
  { emailChecks: Type.Array(EmailCheckItem, { minItems: 1, maxItems: MAX_BATCH }) },
  { additionalProperties: false },
);

/** The input type of services/email-check.service.ts, derived from the request schema. */
export type EmailCheckInput = Static<typeof EmailCheckItem>;
