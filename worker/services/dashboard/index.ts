// The administrators' dashboard: the shop's money and work at a glance, read from the other domains.
// The rest of the Worker calls what is exported here.
export { adminDashboard } from './admin-dashboard';
export { foldDashboardDays } from './dashboard-rollups';
