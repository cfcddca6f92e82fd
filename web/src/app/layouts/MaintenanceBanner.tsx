// The site settings' maintenance notice (settings/public `maintenanceNotice`), on the public pages
// and in the user shell. Dismissing it hides that notice for the rest of the browser session; a
// different notice shows again.
import { useState } from 'react';
import { ShellIcon } from '@/components/ShellIcon';
import { usePublicSettings } from '@/lib/settings';

export const NOTICE_DISMISSED_KEY = 'maintenanceNoticeDismissed';

function dismissedNotice(): string | null {
  try {
    return window.sessionStorage.getItem(NOTICE_DISMISSED_KEY);
  } catch {
    return null;
  }
}

export function MaintenanceBanner() {
  const { data: settings } = usePublicSettings();
  const notice = typeof settings?.maintenanceNotice === 'string' ? settings.maintenanceNotice.trim() : '';
  // The browser's session storage is read only when there is a notice: its first read costs a phone a long moment.
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!notice || notice === (dismissed ?? dismissedNotice())) return null;

  const dismiss = () => {
    try {
      window.sessionStorage.setItem(NOTICE_DISMISSED_KEY, notice);
    } catch {
      // Storage blocked: hide it for this page view only.
    }
    setDismissed(notice);
  };

  return (
    <div role="status" aria-label="Maintenance notice" className="border-b border-amber-200 bg-amber-50 text-amber-900">
      <div className="mx-auto flex max-w-6xl items-start gap-2 px-4 py-2 text-sm">
        <ShellIcon name="alert" className="mt-0.5 h-4 w-4 shrink-0" />
        <p className="min-w-0 flex-1 whitespace-pre-line">{notice}</p>
        <button
          type="button"
          onClick={dismiss}
          aria-label="Dismiss notice"
          className="-my-1 flex h-7 w-7 shrink-0 items-center justify-center rounded-md text-amber-800 transition hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-amber-700"
        >
          <ShellIcon name="close" className="h-4 w-4" />
        </button>
      </div>
    </div>
  );
}
