import { Spinner } from '@/components/Spinner';
import { cx } from '@/lib/shellHooks';
import { useResendVerification } from './useResendVerification';

/** "Send a new link" for the signed-in person's address, with the server's answer under it (sent, or when to try again). */
export function ResendLinkButton({ className, compact = false }: { className?: string; compact?: boolean }) {
  const { send, sending, answer } = useResendVerification();
  return (
    <div className={cx(compact ? 'flex flex-wrap items-center gap-x-3 gap-y-1' : 'space-y-3', className)}>
      <button type="button" className={compact ? 'btn-sm btn-secondary' : 'btn btn-primary w-full'} disabled={sending} onClick={send}>
        {sending ? <Spinner label="" className="h-4 w-4" /> : null}
        Send a new link
      </button>
      <p role="status" className={cx('text-sm', answer?.ok === false ? 'text-rose-700' : 'text-emerald-800', !answer && 'sr-only')}>
        {answer?.text}
      </p>
    </div>
  );
}
