// The service catalogue: GET services (paged, searchable) and GET services/categories.
import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { publicClient, read } from '@/lib/api';

export type Service = InferResponseType<typeof publicClient.services.$get, 200>['data'][number];
export type Category = InferResponseType<typeof publicClient.services.categories.$get, 200>['data'][number];

export interface ServiceFilters {
  search?: string;
  category?: string;
  platform?: string;
}

export const SERVICES_PAGE_SIZE = 100;

/** The server's search (worker/services/catalogue/catalogue.ts) on a service already loaded: name contains it, or a number is its id. */
export function matchesSearch(service: Service, search: string): boolean {
  return service.name.toLowerCase().includes(search.toLowerCase()) || (/^\d{1,9}$/.test(search) && String(service.id) === search);
}

export const getServices = (filters: ServiceFilters, page: number, limit: number, signal?: AbortSignal) =>
  read(publicClient.services.$get({ query: { ...filters, page: String(page), limit: String(limit) } }, { init: { signal } }));

export const getCategories = (signal?: AbortSignal) => read(publicClient.services.categories.$get(undefined, { init: { signal } }));

export const categoriesQuery = queryOptions({
  queryKey: ['services', 'categories'],
  queryFn: ({ signal }) => getCategories(signal),
  staleTime: 5 * 60_000,
});

export function useCategories() {
  return useQuery({ ...categoriesQuery, select: (r) => r.data });
}

/** Pages of services, as the list asks for them (and the signed-in pages' early start: earlyRequests.ts). */
export const servicesListQuery = (filters: ServiceFilters, pageSize = SERVICES_PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: ['services', 'list', filters, pageSize],
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => getServices(filters, pageParam, pageSize, signal),
    getNextPageParam: (last) => (last.page * last.limit < last.total && last.data.length > 0 ? last.page + 1 : undefined),
    staleTime: 60_000,
  });

/** Pages of services, loaded as the list scrolls (the list virtualises the rows). */
export function useServicesInfinite(filters: ServiceFilters, pageSize = SERVICES_PAGE_SIZE) {
  return useInfiniteQuery({ ...servicesListQuery(filters, pageSize), placeholderData: keepPreviousData });
}

/**
 * The query for one service by id (through the search, which also matches ids); null when no
 * service on sale has it. Shared by the order form's ?service= and the mass order's prices.
 */
export const serviceByIdQuery = (id: string) =>
  queryOptions({
    queryKey: ['services', 'byId', id],
    queryFn: async ({ signal }) => (await getServices({ search: id }, 1, 50, signal)).data.find((s) => String(s.id) === id) ?? null,
    staleTime: 60_000,
  });

/** Distinct platforms of the categories, in first-seen order. */
export function platformsOf(categories: ReadonlyArray<Category> | undefined): string[] {
  const seen = new Set<string>();
  for (const c of categories ?? []) if (c.platform) seen.add(c.platform);
  return [...seen];
}

/** ceil(rateKobo × quantity / 1000) in kobo, exact (BigInt); 0n for unreadable input. */
export function chargeKobo(rateKobo: string | number | null | undefined, quantity: number): bigint {
  if (!Number.isFinite(quantity) || quantity <= 0) return 0n;
  let rate: bigint;
  try {
    rate = BigInt(String(rateKobo ?? '0').trim() || '0');
  } catch {
    return 0n;
  }
  const q = BigInt(Math.floor(quantity));
  const product = rate * q;
  return (product + 999n) / 1000n;
}

/** Naira text ("1234.56" or a number) to kobo. */
export function nairaToKobo(value: string | number | null | undefined): bigint {
  const text = String(value ?? '0').trim();
  const m = /^(-?)(\d*)(?:\.(\d{0,2})\d*)?$/.exec(text);
  if (!m) return 0n;
  const kobo = BigInt(m[2] || '0') * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] ? -kobo : kobo;
}
