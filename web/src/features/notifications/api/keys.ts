// The notification queries' keys: the bell and the email settings.
export const notificationKeys = {
  bell: ['notifications', 'bell'] as const,
  settings: ['notifications', 'settings'] as const,
};
