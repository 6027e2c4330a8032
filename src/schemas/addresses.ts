// Custom from and to addresses: the request body and the read shapes of both lists.

import { Type } from 'typebox';
import { MAX_BATCH, Meta, OptionalText, Text } from './common.ts';

// ---- addresses ----
export const AddressInput = Type.Object(
  {
    name: Text(100),
    companyName: OptionalText(100),
    addressLine1: OptionalText(100),
    addressLine2: OptionalText(100),
    city: OptionalText(60),
    state: OptionalText(60),
    zip: OptionalText(20),
    country: OptionalText(60),
    phone: OptionalText(32),
    email: Type.Optional(
      Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Literal('')], {
        'x-message': 'must be a valid email address',
      }),
    ),
    note: OptionalText(200),
  },
  { additionalProperties: false },
);

/**
 * The batch form (`{"addresses": [...]}`), or one address unwrapped, as the PHP SDK in the census
 * sends it (answered unwrapped, like one category: docs/api-notes.md).
 */
export const CreateAddressesBody = Type.Union([
  Type.Object(
    { addresses: Type.Array(AddressInput, { minItems: 1, maxItems: MAX_BATCH }) },
    { additionalProperties: false },
  ),
  AddressInput,
]);

const addressFields = {
  name: Type.String(),
  companyName: Type.String(),
  addressLine1: Type.String(),
  addressLine2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
  country: Type.String(),
  phone: Type.String(),
  email: Type.String(),
  note: Type.String(),
};

/** Spec "Custom 'from' address": the single read keeps `id`. */
export const CustomFromAddressRead = Type.Object({ id: Type.String(), ...addressFields });

export const CustomFromAddressResponse = Type.Object({ success: Type.Literal(true), data: CustomFromAddressRead });

export const FromAddressListItem = Type.Object({ customFromAddressId: Type.String(), ...addressFields });

export const ToAddressListItem = Type.Object({ customToAddressId: Type.String(), ...addressFields });

export const CreateFromAddressesResponse = Type.Union([
  Type.Object({
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object({ addresses: Type.Array(FromAddressListItem) }),
  }),
  Type.Object({ success: Type.Literal(true), message: Type.String(), data: FromAddressListItem }),
]);

export const ListFromAddressesResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ meta: Meta, addresses: Type.Array(FromAddressListItem) }),
});

export const CreateToAddressesResponse = Type.Union([
  Type.Object({
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object({ addresses: Type.Array(ToAddressListItem) }),
  }),
  Type.Object({ success: Type.Literal(true), message: Type.String(), data: ToAddressListItem }),
]);

/** GET /customToAddresses/{id} (the hosted service's): the list item's shape. */
export const ToAddressResponse = Type.Object({ success: Type.Literal(true), data: ToAddressListItem });

export const ListToAddressesResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ meta: Meta, addresses: Type.Array(ToAddressListItem) }),
});
