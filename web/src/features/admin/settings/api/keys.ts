// Under 'admin', so useRefreshAdmin re-reads the settings too.
export const settingsKeys = {
  site: ['admin', 'settings', 'site'] as const,
  payment: ['admin', 'settings', 'payment'] as const,
  security: ['admin', 'settings', 'security'] as const,
  resellerApi: ['admin', 'settings', 'reseller-api'] as const,
};
