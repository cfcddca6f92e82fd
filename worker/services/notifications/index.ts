// What users are told: the bell's notifications, written with the event they tell of, and the cron's emails, low-balance check
// and daily summary of orders placed through the API. The rest of the Worker calls what is exported here.
export { writeApiOrderDigests } from './api-order-digest';
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
  type WalletAdjustmentNotice,
  walletAdjustedNotice,
} from './notifications';
export { sendShopEmail } from './shop-email';
