import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordSchema } from '@schemas/auth';
import type { z } from '@schemas/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { TextField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { handleApiError } from '@/lib/api';
import { toastFirstError } from '@/lib/formErrors';
import { toast } from '@/lib/toast';
import { sendPasswordReset } from './api/send-password-reset';

type Values = z.infer<typeof forgotPasswordSchema>;

export default function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });

  const onValid = async ({ email }: Values) => {
    try {
      const res = await sendPasswordReset(email.trim());
      toast.success(res.message || 'Check your email for a reset link');
      setSentTo(email.trim());
    } catch (error) {
      handleApiError(error);
    }
  };

  return (
    <div className="flex min-h-[calc(100dvh-4rem)] items-start justify-center bg-gradient-to-b from-brand-50/70 to-slate-50 px-4 py-8 sm:items-center sm:py-12">
      <section className="card w-full max-w-md p-6 sm:p-8" aria-labelledby="forgot-title">
        {sentTo ? (
          <div className="text-center">
            <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
              <Icon name="mail" className="h-6 w-6" />
            </span>
            <h1 id="forgot-title" className="mt-4 text-2xl font-bold text-slate-900">
              Check your email
            </h1>
            <p className="mt-2 text-sm text-slate-600">
              If an account exists for <span className="font-medium text-slate-900">{sentTo}</span>, we have sent a link to reset the password. The link expires
              soon, so use it right away.
            </p>
            <div className="mt-6 flex flex-col gap-2">
              <Link to="/auth/login" className="btn btn-primary w-full">
                Back to Sign In
              </Link>
              <button type="button" className="btn btn-ghost w-full" onClick={() => setSentTo(null)}>
                Use another email
              </button>
            </div>
          </div>
        ) : (
          <>
            <h1 id="forgot-title" className="text-2xl font-bold tracking-tight text-slate-900">
              Forgot your password?
            </h1>
            <p className="mt-1 mb-6 text-sm text-slate-600">Enter the email you signed up with and we&apos;ll send you a reset link.</p>
            <form noValidate onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, ['email']))} className="space-y-4">
              <TextField
                label="Email Address"
                type="email"
                autoComplete="email"
                inputMode="email"
                placeholder="you@example.com"
                error={errors.email?.message}
                {...register('email')}
              />
              <button type="submit" className="btn btn-primary w-full" disabled={isSubmitting}>
                {isSubmitting ? <Spinner label="Sending" /> : null}
                Send reset link
              </button>
              <p className="text-center text-sm text-slate-600">
                Remembered it?{' '}
                <Link to="/auth/login" className="link">
                  Sign In
                </Link>
              </p>
            </form>
          </>
        )}
      </section>
    </div>
  );
}
