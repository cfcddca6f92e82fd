// /user and /user/services: the catalogue with an "Order" button on every service.
import { Link, useNavigate } from 'react-router-dom';
import type { Service } from '@/api/catalogue';
import { useWalletBalance } from '@/api/wallet';
import { Icon } from '@/components/Icon';
import { Skeleton } from '@/components/Skeleton';
import { useAuth } from '@/lib/authContext';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { isFirstSignIn } from '@/lib/firstSignIn';
import { ServiceCatalog } from './ServiceCatalog';

export default function UserServicesPage() {
  const navigate = useNavigate();
  const money = useDisplayCurrency();
  const { user } = useAuth();
  const balance = useWalletBalance();
  const firstName = (user?.fullName ?? '').split(/\s+/)[0];
  const greeting = isFirstSignIn(user?.id) ? 'Welcome' : 'Welcome back';

  const onOrder = (s: Service) => navigate(`/user/create-order?service=${encodeURIComponent(String(s.id))}`, { state: { service: s } });

  return (
    <div className="space-y-5">
      <section className="flex flex-col gap-4 rounded-2xl bg-gradient-to-br from-brand-700 to-brand-500 p-5 text-white sm:flex-row sm:items-center sm:justify-between sm:p-6">
        <div>
          <p className="text-sm text-brand-100">{firstName ? `${greeting}, ${firstName}` : greeting}</p>
          <h1 className="text-2xl font-bold">Services</h1>
          <p className="mt-1 text-brand-50">Prices are per 1,000 unless stated. Pick a service to order it.</p>
          <p className="mt-1 text-sm text-brand-100">
            Balance:{' '}
            {balance.isPending ? (
              <Skeleton className="inline-block h-4 w-20 bg-white/30 align-middle" />
            ) : (
              <strong className="text-white">{money.format(balance.data ?? 0)}</strong>
            )}
          </p>
        </div>
        {/* One row of three 44 px buttons even at 360 px: the labels never wrap, and the icons join them from sm up. */}
        <div className="grid grid-cols-3 gap-2 sm:flex">
          <Link to="/user/create-order" className="btn bg-white px-2 whitespace-nowrap text-brand-800 sm:px-3 hover:bg-brand-50 focus-visible:outline-white">
            <Icon name="cart" className="hidden h-4 w-4 sm:block" /> <span>New order</span>
          </Link>
          <Link
            to="/user/add-fund"
            className="btn border border-white/40 px-2 whitespace-nowrap text-white sm:px-3 hover:bg-white/10 focus-visible:outline-white"
          >
            <Icon name="wallet" className="hidden h-4 w-4 sm:block" /> <span>Add funds</span>
          </Link>
          <Link
            to="/user/dashboard"
            className="btn border border-white/40 px-2 whitespace-nowrap text-white sm:px-3 hover:bg-white/10 focus-visible:outline-white"
          >
            <Icon name="chart" className="hidden h-4 w-4 sm:block" /> <span>Dashboard</span>
          </Link>
        </div>
      </section>
      <ServiceCatalog actionLabel="Order" onAction={onOrder} withFavorites />
    </div>
  );
}
