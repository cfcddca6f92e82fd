// One order as GET user/orders lists it, for the order-list tests: an in-progress plain order, changed by each test where it matters.
import type { Order } from '@/api/orders';

export const customerOrder = (changes: Partial<Order> = {}): Order => ({
  id: 0,
  serviceId: 101,
  serviceName: 'Instagram Followers HQ',
  link: 'https://instagram.com/ada',
  quantity: 1000,
  runs: null,
  interval: null,
  posts: null,
  total: 1000,
  delivered: 600,
  confirmationExpectedBy: null,
  charge: '1550.25',
  startCount: 120,
  remains: 400,
  status: 'In progress',
  statusReason: null,
  refunded: '0.00',
  canRefill: false,
  refillUntil: null,
  canCancel: false,
  created_at: '2024-03-05T10:00:00Z',
  updated_at: '2024-03-05T10:00:00Z',
  ...changes,
});
