import type { Owner } from '../domain/owner.ts';
import { ADDRESS_FIELDS, type Address, type AddressFields, type AddressKind } from '../domain/address.ts';
import type { Category } from '../domain/category.ts';
import { newId } from '../domain/ids.ts';
import { AppError, notFound } from '../errors.ts';
import { ForeignKeyViolation } from '../store/db.ts';
import type { Page } from '../store/owned-queries.ts';
import type { Paged } from '../domain/paging.ts';
import * as addressStore from '../store/addresses.repository.ts';
import * as categoryStore from '../store/categories.repository.ts';
import type { ServiceContext } from './context.ts';

export async function createAddresses(
  ctx: ServiceContext,
  owner: Owner,
  kind: AddressKind,
  items: readonly (Partial<AddressFields> & { name: string })[],
): Promise<Address[]> {
  const now = ctx.now();
  const addresses = items.map((item): Address => {
    const fields = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, item[f] ?? ''])) as AddressFields;
    return { id: newId(kind, now), kind, ...fields, createdAt: now };
  });
  await ctx.db.transaction(async (tx) => {
    await addressStore.insertAddresses(tx, owner, addresses);
  });
  return addresses;
}

export async function getAddress(ctx: ServiceContext, owner: Owner, kind: AddressKind, id: string): Promise<Address> {
  const address = await addressStore.findAddress(ctx.db, owner, kind, id);
  if (address === undefined) throw notFound('Address');
  return address;
}

export function listAddresses(
  ctx: ServiceContext,
  owner: Owner,
  kind: AddressKind,
  page: Page,
): Promise<Paged<Address>> {
  return addressStore.listAddresses(ctx.db, owner, kind, page);
}

/** Changes the fields given (the panel's edit form; the API has no address update). */
export async function updateAddress(
  ctx: ServiceContext,
  owner: Owner,
  kind: AddressKind,
  id: string,
  changes: Partial<AddressFields>,
): Promise<Address> {
  if ((await addressStore.updateAddress(ctx.db, owner, kind, id, changes)) === 0) throw notFound('Address');
  return getAddress(ctx, owner, kind, id);
}

/** Deletes an address nothing refers to (no bank account prints it, no mailing used it); else a 409, nothing changed. */
export async function deleteUnusedAddress(
  ctx: ServiceContext,
  owner: Owner,
  kind: AddressKind,
  id: string,
): Promise<void> {
  const inUse = new AppError(
    'conflict',
    kind === 'from'
      ? 'A bank account prints this address or a mailing was sent from it, so it cannot be deleted.'
      : 'A mailing was sent to this address, so it cannot be deleted.',
  );
  try {
    await ctx.db.transaction(async (tx) => {
      if ((await addressStore.deleteUnusedAddress(tx, owner, kind, id)) > 0) return;
      if ((await addressStore.findAddress(tx, owner, kind, id)) === undefined) throw notFound('Address');
      throw inUse;
    });
  } catch (error) {
    // The row lock decides the race; the foreign keys are the last guard, and say the same.
    if (error instanceof ForeignKeyViolation) throw inUse;
    throw error;
  }
}

export async function createCategories(
  ctx: ServiceContext,
  owner: Owner,
  items: readonly { name: string; type?: string }[],
): Promise<Category[]> {
  const now = ctx.now();
  const categories = items.map(
    (item): Category => ({ id: newId('cat', now), name: item.name, type: item.type ?? '', createdAt: now }),
  );
  await ctx.db.transaction(async (tx) => {
    await categoryStore.insertCategories(tx, owner, categories);
  });
  return categories;
}

export function listCategories(ctx: ServiceContext, owner: Owner, page: Page): Promise<Paged<Category>> {
  return categoryStore.listCategories(ctx.db, owner, page);
}

export async function getCategory(ctx: ServiceContext, owner: Owner, id: string): Promise<Category> {
  const category = await categoryStore.findCategory(ctx.db, owner, id);
  if (category === undefined) throw notFound('Category');
  return category;
}

export async function updateCategory(
  ctx: ServiceContext,
  owner: Owner,
  id: string,
  changes: { name?: string; type?: string },
): Promise<Category> {
  if ((await categoryStore.updateCategory(ctx.db, owner, id, changes)) === 0) throw notFound('Category');
  return getCategory(ctx, owner, id);
}

/** Deletes a category no check is filed under; else a 409, nothing changed. */
export async function deleteUnusedCategory(ctx: ServiceContext, owner: Owner, id: string): Promise<void> {
  const inUse = new AppError('conflict', 'Checks are filed under this category, so it cannot be deleted.');
  try {
    await ctx.db.transaction(async (tx) => {
      if ((await categoryStore.deleteUnusedCategory(tx, owner, id)) > 0) return;
      if ((await categoryStore.findCategory(tx, owner, id)) === undefined) throw notFound('Category');
      throw inUse;
    });
  } catch (error) {
    if (error instanceof ForeignKeyViolation) throw inUse;
    throw error;
  }
}
