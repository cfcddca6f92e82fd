import { RegisterForm } from './RegisterForm';

export default function RegisterPage() {
  return (
    <section className="card p-6 sm:p-8" aria-labelledby="register-title">
      <h1 id="register-title" className="text-2xl font-bold tracking-tight text-slate-900">
        Create your account
      </h1>
      <p className="mt-1 mb-6 text-sm text-slate-600">Start growing your audience in minutes. No subscription, pay as you go.</p>
      <RegisterForm />
    </section>
  );
}
