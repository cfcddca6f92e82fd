import { Outlet } from 'react-router-dom';

/** Centres the login / register card under the public header. */
export default function AuthLayout() {
  return (
    <div className="flex min-h-[calc(100dvh-4rem)] items-start justify-center bg-gradient-to-b from-brand-50/70 to-slate-50 px-4 py-8 sm:items-center sm:py-12">
      <div className="w-full max-w-md">
        <Outlet />
      </div>
    </div>
  );
}
