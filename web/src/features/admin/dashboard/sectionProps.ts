import type { Dashboard } from './api/get-dashboard';

/** Every section reads the one dashboard answer, so the page asks once and the sections show it loading together. */
export interface DashboardSectionProps {
  data: Dashboard | undefined;
  loading: boolean;
}
