import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** A link to a user's page in the admin area: /admin/manage-user reads whom to show from router state, not from the address. */
export function ManageUserLink({ userId, className, children }: { userId: number | string; className: string; children: ReactNode }) {
  return (
    <Link to="/admin/manage-user" state={{ userId }} className={className}>
      {children}
    </Link>
  );
}
