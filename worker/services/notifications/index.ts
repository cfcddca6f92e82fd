// What users are told: the bell's notifications, written with the event they tell of, and the cron's emails and low-balance check.
// The rest of the Worker calls what is exported here.
export { checkLowBalances, readUnsubscribeToken, sendNotificationEmails } from './notification-emails';
export {
  listNotifications,
  markRead,
  notificationSettingsOf,
  notify,
  notifyDepositCredited,
  notifyOrderClosed,
  notifyRefillCompleted,
  notifyTicketAnswered,
  turnEmailOff,
  updateNotificationSettings,
} from './notifications';
