// What the Worker makes of the fake panel's services (local/fakes/smm-catalogue.ts), shared by the
// Worker tests that prove it and the screen tests that stand in for the Worker with it.

/** Fake service 1021 imported at 60% markup, as the catalogue lists it (its ids, name and category id are each shop's own). */
export const IG_FOLLOWERS_AT_60 = {
  platform: 'Instagram',
  category: 'Instagram Followers',
  type: 'Default',
  rate: '3596.60',
  rateKobo: '359660',
  min: 100,
  max: 100000,
  refill: true,
  cancel: true,
  dripfeed: false,
  refillDays: 30,
  linkKind: 'username',
  averageTimeSeconds: null,
} as const;
