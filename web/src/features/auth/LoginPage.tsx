import { LoginForm } from './LoginForm';

export default function LoginPage() {
  return (
    <section className="card p-6 sm:p-8" aria-labelledby="login-title">
      <h1 id="login-title" className="text-2xl font-bold tracking-tight text-slate-900">
        Welcome back
      </h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Sign in to place orders and manage your wallet.</p>
      <LoginForm />
    </section>
  );
}
