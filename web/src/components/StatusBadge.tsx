import { cx } from '@/lib/hooks';

type Tone = 'green' | 'amber' | 'blue' | 'red' | 'slate' | 'violet';

const TONES: Record<Tone, string> = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  blue: 'bg-sky-50 text-sky-700 ring-sky-600/20',
  red: 'bg-rose-50 text-rose-700 ring-rose-600/20',
  slate: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  violet: 'bg-violet-50 text-violet-700 ring-violet-600/20',
};

/** Colour for an order status text; unknown statuses are shown as given, in grey. */
export function statusTone(status: string | null | undefined): Tone {
  const s = (status ?? '').toLowerCase();
  if (s.includes('complete') || s === 'success' || s === 'successful') return 'green';
  if (s.includes('partial')) return 'violet';
  if (s.includes('cancel') || s.includes('fail') || s.includes('refund') || s.includes('error') || s.includes('reject')) return 'red';
  if (s.includes('progress') || s.includes('processing') || s.includes('active')) return 'blue';
  if (s.includes('pending') || s.includes('queue') || s.includes('waiting')) return 'amber';
  return 'slate';
}

/** `wrap`: a longer note that may take two lines, so a table column stays narrow. */
export function Badge({ tone = 'slate', children, className, wrap = false }: { tone?: Tone; children: React.ReactNode; className?: string; wrap?: boolean }) {
  return (
    <span
      className={cx(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset',
        wrap ? 'max-w-[9rem] whitespace-normal' : 'whitespace-nowrap',
        TONES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}

export function StatusBadge({ status }: { status: string | null | undefined }) {
  return <Badge tone={statusTone(status)}>{status || 'Unknown'}</Badge>;
}
