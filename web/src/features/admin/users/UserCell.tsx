import { CellText } from '@/components/ResponsiveTable';
import { ManageUserLink } from './ManageUserLink';

/**
 * The user of a row in an admin list (orders, transactions, pending payments): name over email, both opening the
 * user's page. `narrow` where the table has more columns to share the width with.
 */
export function UserCell({ userId, fullName, email, narrow = false }: { userId: number; fullName: string | null; email: string | null; narrow?: boolean }) {
  // Important, so the width wins over CellText's own max-width whatever order the stylesheet puts them in.
  const width = narrow ? 'max-w-[9rem]!' : 'max-w-[11rem]!';
  return (
    <ManageUserLink userId={userId} className="block text-brand-700 hover:underline">
      <CellText text={fullName} className={width} />
      <CellText text={email} className={`${width} text-xs text-slate-500`} />
    </ManageUserLink>
  );
}
