import { USER_TYPE } from '@vocabulary';

import { useNavigate } from 'react-router-dom';
import type { Service } from '@/api/catalogue';
import { useAuth } from '@/lib/authContext';
import { rememberChosenService } from '@/lib/chosenService';
import { ServiceCatalog } from './ServiceCatalog';

/** Public catalogue. "Order" takes a signed-in user to the order form; a visitor to login first. */
export default function ServicesPage() {
  const { user, userType } = useAuth();
  const navigate = useNavigate();

  const onOrder = (s: Service) => {
    const target = { pathname: '/user/create-order', search: `?service=${encodeURIComponent(String(s.id))}`, hash: '' };
    if (user && userType === USER_TYPE.user) navigate(`${target.pathname}${target.search}`, { state: { service: s } });
    else if (user) navigate('/admin');
    else {
      // Kept beyond this navigation too: a visitor without an account goes on to Register first.
      rememberChosenService(s.id);
      navigate('/auth/login', { state: { from: target } });
    }
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
      <header className="mb-6">
        <h1 className="page-title">Services</h1>
        <p className="mt-1 text-slate-600">Prices are per 1,000 unless stated. Pick a service to order it.</p>
      </header>
      <ServiceCatalog actionLabel="Order" onAction={onOrder} />
    </div>
  );
}
