// Site, payment and security settings: small documents with defaults in code, payment keys encrypted at rest.
// The rest of the Worker may call all of it.
export * from './reseller-api-settings';
export * from './settings';
