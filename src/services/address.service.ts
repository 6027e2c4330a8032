import type { Owner } from '../domain/owner.ts';
import { ADDRESS_FIELDS, type Address, type AddressFields, type AddressKind } from '../domain/address.ts';
import type { Category } from '../domain/category.ts';
import { newId } from '../domain/ids.ts';
import { AppError, notFound } from '../errors.ts';
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
  if ((await addressStore.deleteUnusedAddress(ctx.db, owner, kind, id)) > 0) return;
  await getAddress(ctx, owner, kind, id);
  throw new AppError(
    'conflict',
    kind === 'from'
      ? 'A bank account prints this address or a mailing was sent from it, so it cannot be deleted.'
      : 'A mailing was sent to this address, so it cannot be deleted.',
  );
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
  if ((await categoryStore.deleteUnusedCategory(ctx.db, owner, id)) > 0) return;
  await getCategory(ctx, owner, id);
  throw new AppError('conflict', 'Checks are filed under this category, so it cannot be deleted.');
}
