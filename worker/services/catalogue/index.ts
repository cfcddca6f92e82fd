// The catalogue: what the shop sells and at what price. Providers and their live lists, imports and the sync, exchange rates,
// prices behind the margin guard and those held for review, refill windows and favourites. The rest of the Worker calls what is exported here.
export { adminListCategories, adminListServices, adminService, listAllServices, PLATFORMS } from './catalogue';
export { bulkUpdateServices, catalogueSettingsView, updateCatalogueSettings, updateCategory, updateService } from './catalogue-edits';
export { importFromProvider, importServicesCsv } from './catalogue-import';
export { listPublicCategories, listPublicServices } from './catalogue-snapshot';
export { syncProviderCatalogue } from './catalogue-sync';
export { addFavorite, favoriteIds, listFavorites, removeFavorite } from './favorites';
export { accountLink, appUriLink, linkKindOf } from './link-kinds';
export { getCatalogueSettings, saveCatalogueSettings } from './margin';
export { acceptProviderPrice, acceptRate, listHeldProviderPrices, listRateReview, rejectRate } from './price-review';
export { checkProviderBalances } from './provider-balances';
export {
  checkProviderBalance,
  createProvider,
  deleteProvider,
  getProvider,
  listProviders,
  type ProviderEnv,
  type ProviderRow,
  providerCatalogue,
  providerClient,
  providerDetail,
  providerWebhookSecret,
  updateProvider,
} from './providers';
export { listRates, refreshRates, refreshRatesIfStale } from './rates';
export { refillDeadline, refillPeriodEnded } from './refill-window';
