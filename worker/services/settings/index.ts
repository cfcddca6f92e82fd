// Site, payment and security settings: small documents with defaults in code, payment keys encrypted at rest.
// The rest of the Worker calls what is exported here.
export {
  adminTwoFactorRequiredSql,
  bankTransferOffered,
  bankTransferOn,
  DEFAULT_PAYMENT_SETTINGS,
  DEPLOYMENT_SECRETS,
  getPaymentSettings,
  getPublicSettings,
  getSecuritySettings,
  getSiteSettings,
  type PaymentMode,
  type ResolvedSecret,
  resolvePaymentSecret,
  SECRET_NAMES,
  type SecretName,
  type StoredPaymentSettings,
  saveSetting,
  updateSecuritySettings,
  updateSiteSettings,
} from './settings';
