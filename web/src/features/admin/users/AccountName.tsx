import { CellText } from '@/components/ResponsiveTable';
import { Badge } from '@/components/StatusBadge';

/**
 * An account's name in an admin list, marked "You" on the signed-in administrator's own row, with its
 * email (and more) under it; `wide` where the table has fewer columns and so room for longer names.
 */
export function AccountName({ name, detail, isMe, wide = false }: { name: string; detail: string; isMe: boolean; wide?: boolean }) {
  return (
    <div className="min-w-0">
      <p className="flex items-center gap-1.5">
        <CellText text={name} className={wide ? 'max-w-[18rem] font-medium text-slate-900' : 'max-w-[15rem] font-medium text-slate-900'} />
        {isMe ? <Badge tone="violet">You</Badge> : null}
      </p>
      <CellText text={detail} className={wide ? 'max-w-[20rem] text-xs text-slate-500' : 'max-w-[18rem] text-xs text-slate-500'} />
    </div>
  );
}
