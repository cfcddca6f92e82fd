// The catalogue the order-screen tests sell from, and a customer with enough in the wallet for every order there.
import { ADA } from '../app';

export const RICH_ADA = { ...ADA, wallet: { balance: '50000.00' } };

export const SERVICE_BASE = {
  platform: 'Instagram',
  categoryId: 1,
  refill: true,
  cancel: false,
  dripfeed: false,
  averageTimeSeconds: null,
  refillDays: 30,
  linkKind: 'url',
};

/** A default service, a package and a custom-comments one. */
export const ORDER_SERVICES = [
  {
    ...SERVICE_BASE,
    id: 102,
    name: 'Instagram Likes',
    category: 'Instagram Likes',
    type: 'Default',
    min: 100,
    max: 10000,
    rate: '3596.60',
    rateKobo: '359660',
  },
  {
    ...SERVICE_BASE,
    id: 103,
    name: 'Instagram Reach Package',
    category: 'Instagram Packages',
    type: 'Package',
    min: 1,
    max: 1,
    rate: '12.50',
    rateKobo: '1250',
  },
  {
    ...SERVICE_BASE,
    id: 104,
    name: 'Instagram Comments',
    category: 'Instagram Comments',
    type: 'Custom Comments',
    min: 5,
    max: 500,
    rate: '900.00',
    rateKobo: '90000',
  },
];
