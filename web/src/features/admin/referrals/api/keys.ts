// Under 'admin', so useRefreshAdmin re-reads the referrals too.
export const referralAdminKeys = {
  all: ['admin', 'referrals'] as const,
  list: (page: number) => ['admin', 'referrals', 'list', page] as const,
  settings: ['admin', 'referrals', 'settings'] as const,
};
