// The catalogue engineer's admin calls (worker/routes/admin/{providers,services}.ts): providers,
// services with their markups, categories, the global pricing rules, imports and the margin
// guard's warnings. Percentages and money travel as decimal text.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { WarningKind } from '@schemas/catalogue';
import { api } from '@/lib/api';
import type { ListPage, ProviderSummary } from './adminApi';

export interface AdminProvider extends ProviderSummary {
  apiUrl: string;
  apiKeySet: boolean;
  timeoutMs: number;
  created_at: string;
  updated_at: string;
}

export interface ProviderInput {
  name?: string;
  apiUrl?: string;
  /** Write-only: sent when set or replaced, never read back. */
  apiKey?: string;
  currency?: string;
  timeoutMs?: number;
  enabled?: boolean;
  lowBalanceAlert?: string | null;
}

export interface AdminService {
  id: number;
  name: string;
  description: string;
  platform: string;
  categoryId: number;
  category: string;
  type: string;
  rate: string;
  rateKobo: string;
  min: number;
  max: number;
  refill: boolean;
  cancel: boolean;
  dripfeed: boolean;
  /** Days after completion a refill may be asked for; null: no limit. */
  refillDays: number | null;
  /** What orders give as their link, as decided (the override, else from the type and category). */
  linkKind: 'url' | 'username';
  /** The administrator's choice; null: decided automatically. */
  linkKindOverride: 'url' | 'username' | null;
  averageTimeSeconds: number | null;
  providerId: number;
  providerName: string;
  providerServiceId: string;
  /** The provider's price per 1000 in its currency, which the cost is worked out from. */
  providerRate: string;
  /** A new provider price held for review; null: none. */
  proposedProviderRate: string | null;
  cost: string;
  costKobo: string;
  marginPercent: string | null;
  priceMode: 'markup' | 'fixed';
  markupPercent: string | null;
  effectiveMarkupPercent: string;
  providerMin: number;
  providerMax: number;
  enabled: boolean;
  disabledReason: 'admin' | 'margin' | 'provider_missing' | 'provider_price' | null;
  updated_at: string;
}

export interface ServiceQuery {
  page: number;
  limit: number;
  search?: string;
  category?: string;
  providerId?: number;
  enabled?: boolean;
}

export interface ServiceInput {
  name?: string;
  description?: string;
  category?: string;
  rate?: string;
  markupPercent?: string | null;
  min?: number;
  max?: number;
  enabled?: boolean;
  refillDays?: number | null;
  linkKind?: 'url' | 'username' | null;
}

export interface AdminCategory {
  id: number;
  name: string;
  platform: string;
  serviceCount: number;
  markupPercent: string | null;
}

export interface PricingSettings {
  defaultMarkupPercent: string;
  minMarginPercent: string;
  marginGuardAction: 'reprice' | 'disable';
  /** A new exchange rate further than this from the last accepted one waits for review. */
  rateBandPercent: string;
  /** A provider price this many times above or below the last one waits for review ("3.00"). */
  providerPriceFactor: string;
}

/** An exchange rate (units per USD, 6 decimals) and the one held for review, if any. */
export interface ExchangeRateReview {
  currency: string;
  rate: string;
  proposedRate: string | null;
  /** The proposal's move from the rate, e.g. "+50.00". */
  changePercent: string | null;
  proposedAt: string | null;
  updatedAt: string;
  fetchedAt: string;
}

/** A service whose new provider price the catalogue sync held back, with what accepting it would make of it. */
export interface HeldProviderPrice {
  serviceId: number;
  name: string;
  providerId: number;
  providerName: string;
  currency: string;
  providerRate: string;
  /** null: the provider gave no readable price, so there is nothing to accept yet. */
  proposedProviderRate: string | null;
  changePercent: string | null;
  cost: string;
  rate: string;
  newCost: string | null;
  newRate: string | null;
  enabled: boolean;
  disabledReason: string | null;
}

export type { WarningKind };

export interface CatalogueWarning {
  id: number;
  kind: WarningKind;
  providerId: number | null;
  serviceId: number | null;
  orderId: number | null;
  message: string;
  created_at: string;
  acknowledged_at: string | null;
}

export interface ProviderCatalogueEntry {
  service: string;
  name: string;
  type: string;
  category: string;
  /** The provider's price per 1000 in its own currency. */
  rate: string;
  /** That price in naira at the cached rate. */
  cost: string;
  min: number;
  max: number;
  refill: boolean;
  cancel: boolean;
  dripfeed: boolean;
  importedServiceId: number | null;
}

export interface ImportResult {
  message?: string;
  created: number;
  results: Array<{ service: string; ok: boolean; serviceId?: number; created?: boolean; error?: string }>;
}

export interface CsvImportResult {
  message?: string;
  imported: number;
  failed: number;
  results: Array<{ row: number; service: string; ok: boolean; serviceId?: number; error?: string }>;
}

/** Under 'admin', so useRefreshAdmin re-reads them after any change. */
export const catalogueKeys = {
  providers: ['admin', 'catalogue', 'providers'] as const,
  providerServices: (providerId: number) => ['admin', 'catalogue', 'provider-services', providerId] as const,
  services: (q: ServiceQuery) => ['admin', 'catalogue', 'services', q] as const,
  categories: ['admin', 'catalogue', 'categories'] as const,
  pricing: ['admin', 'catalogue', 'pricing'] as const,
  rates: ['admin', 'catalogue', 'rates'] as const,
  heldPrices: (q: { page: number; limit: number }) => ['admin', 'catalogue', 'held-prices', q] as const,
  warnings: (q: { page: number; limit: number; acknowledged?: boolean }) => ['admin', 'catalogue', 'warnings', q] as const,
};

const id = (value: number | string) => encodeURIComponent(String(value));

// ------------------------------------------------------------------------------ providers

export function useProviders() {
  return useQuery({
    queryKey: catalogueKeys.providers,
    queryFn: async ({ signal }) => (await api.get<{ data: AdminProvider[] }>('admin/providers', { signal })).data,
  });
}

export const createProvider = (body: ProviderInput) => api.post<{ message?: string; data: AdminProvider }>('admin/providers', body);
export const updateProvider = (providerId: number, body: ProviderInput) => api.put<{ message?: string; data: AdminProvider }>(`admin/providers/${id(providerId)}`, body);
export const deleteProvider = (providerId: number) => api.delete<{ message?: string }>(`admin/providers/${id(providerId)}`);
export const checkProviderBalance = (providerId: number) =>
  api.get<{ data: { balance: string; currency: string; lowBalance: boolean } }>(`admin/providers/${id(providerId)}/balance`);
export const syncProviderCatalogue = (providerId: number) =>
  api.post<{ message?: string; data: { checked: number; updated: number; repriced: number; disabled: number; missing: number; held: number } }>(`admin/providers/${id(providerId)}/sync`);

/** The provider's live catalogue (what can be imported), loaded when the import dialog picks a provider. */
export function useProviderCatalogue(providerId: number | null) {
  return useQuery({
    queryKey: catalogueKeys.providerServices(providerId ?? 0),
    enabled: providerId !== null,
    queryFn: ({ signal }) => api.get<{ currency: string; unreadable: number; data: ProviderCatalogueEntry[] }>(`admin/providers/${id(providerId!)}/services`, { signal }),
    staleTime: 5 * 60_000,
  });
}

export const importFromProvider = (providerId: number, body: { serviceIds: string[]; markupPercent?: string }) =>
  api.post<ImportResult>(`admin/providers/${id(providerId)}/import`, body);

/** The CSV import: the file in `user_file`, with the provider its rows' service ids belong to. */
export function importServicesCsv(providerId: number, file: File) {
  const form = new FormData();
  form.append('user_file', file);
  form.append('providerId', String(providerId));
  return api.postMultipart<CsvImportResult>('admin/services/import', form);
}

// ------------------------------------------------------------------------------ services

export function useAdminServices(q: ServiceQuery) {
  return useQuery({
    queryKey: catalogueKeys.services(q),
    queryFn: ({ signal }) => api.get<ListPage<AdminService>>('admin/services', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });
}

export const updateService = (serviceId: number, body: ServiceInput) => api.put<{ message?: string; data: AdminService }>(`admin/services/${id(serviceId)}`, body);
export const bulkUpdateServices = (body: { ids: number[]; action: 'enable' | 'disable' | 'markup'; markupPercent?: string | null }) =>
  api.post<{ message?: string; updated: number; skipped: number[] }>('admin/services/bulk', body);

// ------------------------------------------------------------------------------ categories and pricing

export function useAdminCategories() {
  return useQuery({
    queryKey: catalogueKeys.categories,
    queryFn: async ({ signal }) => (await api.get<{ data: AdminCategory[] }>('admin/services/categories', { signal })).data,
  });
}

export const updateCategory = (categoryId: number, body: { name?: string; platform?: string; markupPercent?: string | null }) =>
  api.put<{ message?: string; data: AdminCategory }>(`admin/services/categories/${id(categoryId)}`, body);

export function usePricingSettings() {
  return useQuery({
    queryKey: catalogueKeys.pricing,
    queryFn: async ({ signal }) => (await api.get<{ data: PricingSettings }>('admin/services/settings', { signal })).data,
  });
}

export const updatePricingSettings = (body: Partial<PricingSettings>) => api.put<{ message?: string; data: PricingSettings & { repriced: number } }>('admin/services/settings', body);
export const refreshExchangeRates = () => api.post<{ message?: string }>('admin/services/rates/refresh');

export function useExchangeRates() {
  return useQuery({
    queryKey: catalogueKeys.rates,
    queryFn: async ({ signal }) => (await api.get<{ data: { bandPercent: string; rates: ExchangeRateReview[] } }>('admin/services/rates', { signal })).data,
  });
}

/** Accepting or rejecting names the proposed rate as shown, so a proposal that changed meanwhile is refused (409). */
export const decideExchangeRate = (currency: string, decision: 'accept' | 'reject', rate: string) =>
  api.post<{ message?: string; data: ExchangeRateReview & { repriced?: number } }>(`admin/services/rates/${id(currency)}/${decision}`, { rate });

export function useHeldProviderPrices(q: { page: number; limit: number }) {
  return useQuery({
    queryKey: catalogueKeys.heldPrices(q),
    queryFn: ({ signal }) => api.get<ListPage<HeldProviderPrice>>('admin/services/held-prices', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });
}

export const acceptProviderPrice = (serviceId: number, providerRate: string) =>
  api.post<{ message?: string; data: AdminService }>(`admin/services/${id(serviceId)}/provider-price/accept`, { providerRate });

// ------------------------------------------------------------------------------ warnings

export function useCatalogueWarnings(q: { page: number; limit: number; acknowledged?: boolean }) {
  return useQuery({
    queryKey: catalogueKeys.warnings(q),
    queryFn: ({ signal }) => api.get<ListPage<CatalogueWarning>>('admin/services/warnings', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });
}

export const acknowledgeWarning = (warningId: number) => api.post<{ message?: string }>(`admin/services/warnings/${id(warningId)}/acknowledge`);
