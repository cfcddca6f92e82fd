// Everyone sees when the shop takes test payments (settings/public `paymentMode`): cards are not
// charged and the money deposited is sandbox money, so nobody mistakes it for a real shop. The root layout
// keeps it at the bottom of the screen, in the dock the scroll-to-top button stands on.
import { ShellIcon } from '@/components/ShellIcon';
import { usePublicSettings } from '@/lib/settings';

export function TestPaymentsBanner() {
  const { data: settings } = usePublicSettings();
  if (settings?.paymentMode !== 'test') return null;
  return (
    <div role="status" aria-label="Test payments" className="bg-violet-700 pb-[env(safe-area-inset-bottom)] text-white">
      <p className="mx-auto flex max-w-6xl items-center justify-center gap-2 px-4 py-1.5 text-center text-xs font-medium sm:text-sm">
        <ShellIcon name="alert" className="h-4 w-4 shrink-0" />
        <span>
          <strong className="font-semibold">Test payments</strong>: cards are not charged and deposits are not real money.
        </span>
      </p>
    </div>
  );
}
