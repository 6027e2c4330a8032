import type { Owner } from '../domain/owner.ts';
import { ADDRESS_FIELDS, type Address, type AddressFields, type AddressKind } from '../domain/address.ts';
import type { Category } from '../domain/category.ts';
import { newId } from '../domain/ids.ts';
import { notFound } from '../errors.ts';
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
