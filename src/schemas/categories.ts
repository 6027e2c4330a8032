// Categories: request bodies (one or many) and the read shape.

import { Type } from 'typebox';
import { MAX_BATCH, Meta, OptionalText, Text } from './common.ts';

// ---- categories ----
export const CategoryInput = Type.Object(
  {
    name: Text(100),
    type: OptionalText(50, {
      description: "The category's kind as the client names it, e.g. expense or income; empty when not given.",
    }),
  },
  { additionalProperties: false },
);

/**
 * The batch form (`{"categories": [...]}`), or one category unwrapped (`{"name", "type"}`), which
 * clients of the hosted service send and answer with `data.categoryId` (docs/api-notes.md).
 */
export const CreateCategoriesBody = Type.Union([
  Type.Object(
    { categories: Type.Array(CategoryInput, { minItems: 1, maxItems: MAX_BATCH }) },
    { additionalProperties: false },
  ),
  CategoryInput,
]);

export const CategoryRead = Type.Object({ categoryId: Type.String(), name: Type.String(), type: Type.String() });

export const CreateCategoriesResponse = Type.Union([
  Type.Object({
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object({ categories: Type.Array(CategoryRead) }),
  }),
  Type.Object({ success: Type.Literal(true), message: Type.String(), data: CategoryRead }),
]);

export const ListCategoriesResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ meta: Meta, categories: Type.Array(CategoryRead) }),
});
