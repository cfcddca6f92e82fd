// Site, payment and security settings: small documents with defaults in code, payment keys encrypted at rest.
// The domain is one file, and the rest of the Worker may call all of it.
export * from './settings';
