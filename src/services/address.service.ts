import type { Owner } from '../domain/owner.ts';
import { ADDRESS_FIELDS, type Address, type AddressFields, type AddressKind, type Category } from '../domain/records.ts';
import { newId } from '../domain/ids.ts';
import { notFound } from '../errors.ts';
import * as resources from '../store/resources.repository.ts';
import type { ServiceContext } from './context.ts';

export async function createAddresses(ctx: ServiceContext, owner: Owner, kind: AddressKind, items: readonly (Partial<AddressFields> & { name: string })[]): Promise<Address[]> {
  const now = ctx.now();
  const addresses = items.map((item): Address => {
    const fields = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, item[f] ?? ''])) as AddressFields;
    return { id: newId(kind, now), kind, ...fields, createdAt: now };
  });
  await ctx.db.transaction(async (tx) => {
    for (const address of addresses) await resources.insertAddress(tx, owner, address);
  });
  return addresses;
}

export async function getAddress(ctx: ServiceContext, owner: Owner, kind: AddressKind, id: string): Promise<Address> {
  const address = await resources.findAddress(ctx.db, owner, kind, id);
  if (address === undefined) throw notFound('Address');
  return address;
}

export function listAddresses(ctx: ServiceContext, owner: Owner, kind: AddressKind, page: resources.Page): Promise<resources.Paged<Address>> {
  return resources.listAddresses(ctx.db, owner, kind, page);
}

export async function createCategories(ctx: ServiceContext, owner: Owner, items: readonly { name: string; type?: string }[]): Promise<Category[]> {
  const now = ctx.now();
  const categories = items.map((item): Category => ({ id: newId('cat', now), name: item.name, type: item.type ?? '', createdAt: now }));
  await ctx.db.transaction(async (tx) => {
    for (const category of categories) await resources.insertCategory(tx, owner, category);
  });
  return categories;
}

export function listCategories(ctx: ServiceContext, owner: Owner, page: resources.Page): Promise<resources.Paged<Category>> {
  return resources.listCategories(ctx.db, owner, page);
}
