// The service catalogue: GET services (paged, searchable) and GET services/categories.
import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { publicApi } from '@/lib/api';

export interface Service {
  id: number | string;
  name: string;
  description?: string | null;
  platform?: string | null;
  categoryId?: number | string | null;
  category?: string | null;
  /** Service type of the SMM-panel API: 'Default', 'Package', 'Custom Comments', ... */
  type?: string | null;
  /** Naira per 1000, 2 decimals. */
  rate: string;
  /** Kobo per 1000 (integer as string): the exact price used for charges. */
  rateKobo: string;
  min: number;
  max: number;
  refill?: boolean | null;
  cancel?: boolean | null;
  dripfeed?: boolean | null;
  /** Days after completion a refill may be asked for; null: no limit. */
  refillDays?: number | null;
  /** What the order's link is: a URL (a post or page), or an account given by username or profile link. */
  linkKind?: 'url' | 'username' | null;
  averageTimeSeconds?: number | null;
}

export interface Category {
  id: number | string;
  name: string;
  platform?: string | null;
  serviceCount?: number | null;
}

export interface Page<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
}

export interface ServiceFilters {
  search?: string;
  category?: string;
  platform?: string;
}

export const SERVICES_PAGE_SIZE = 100;

/** The server's search (worker/services/catalogue.ts) on a service already loaded: name contains it, or a number is its id. */
export function matchesSearch(service: Service, search: string): boolean {
  return service.name.toLowerCase().includes(search.toLowerCase()) || (/^\d{1,9}$/.test(search) && String(service.id) === search);
}

export const categoriesQuery = queryOptions({
  queryKey: ['services', 'categories'],
  queryFn: ({ signal }) => publicApi.get<{ data: Category[] }>('services/categories', { signal }),
  staleTime: 5 * 60_000,
});

export function useCategories() {
  return useQuery({ ...categoriesQuery, select: (r) => (Array.isArray(r?.data) ? r.data : []) });
}

/** Pages of services, as the list asks for them (and the signed-in pages' early start: earlyRequests.ts). */
export const servicesListQuery = (filters: ServiceFilters, pageSize = SERVICES_PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: ['services', 'list', filters, pageSize],
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      publicApi.get<Page<Service>>('services', {
        query: { search: filters.search, category: filters.category, platform: filters.platform, page: pageParam, limit: pageSize },
        signal,
      }),
    getNextPageParam: (last) => {
      if (!last || !Array.isArray(last.data)) return undefined;
      const page = Number(last.page) || 1;
      const limit = Number(last.limit) || pageSize;
      return page * limit < Number(last.total) && last.data.length > 0 ? page + 1 : undefined;
    },
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
export const serviceByIdQuery = (id: string) => ({
  queryKey: ['services', 'byId', id] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const page = await publicApi.get<Page<Service>>('services', { query: { search: id, limit: 50 }, signal });
    return Array.isArray(page?.data) ? (page.data.find((s) => String(s.id) === id) ?? null) : null;
  },
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
