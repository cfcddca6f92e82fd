import { useLocation } from 'react-router-dom';
import type { LoginState } from '@/lib/authContext';
import { useHydrated } from '@/lib/hydrated';
import { LoginForm } from './LoginForm';

export default function LoginPage() {
  const location = useLocation();
  // After hydrating: the pre-rendered page is the usual one, and a reload keeps the router state.
  const justRegistered = useHydrated() && Boolean((location.state as LoginState | null)?.registered);
  return (
    <section className="card p-6 sm:p-8" aria-labelledby="login-title">
      <h1 id="login-title" className="text-2xl font-bold tracking-tight text-slate-900">
        {justRegistered ? 'Your account is ready' : 'Welcome back'}
      </h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">
        {justRegistered ? 'Sign in to place your first order.' : 'Sign in to place orders and manage your wallet.'}
      </p>
      <LoginForm />
    </section>
  );
}
