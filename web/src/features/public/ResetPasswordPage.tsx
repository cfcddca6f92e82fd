import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordSchema } from '@schemas/auth';
import { z } from '@schemas/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { PasswordField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { handleApiError, isApiError } from '@/lib/api';
import { toastFirstError } from '@/lib/formErrors';
import { toast } from '@/lib/toast';
import { resetPassword } from './api/reset-password';

const schema = resetPasswordSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], error: 'Passwords do not match' });
type Values = z.infer<typeof schema>;

/** /reset-password?token=...: the token is a temporary bearer token for auth/reset-password. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [show, setShow] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { password: '', confirmPassword: '' } });

  const onValid = async ({ password }: Values) => {
    try {
      const res = await resetPassword(token, password);
      toast.success(res.message || 'Password reset successfully');
      reset();
      navigate('/auth/login', { replace: true });
    } catch (error) {
      const reason = handleApiError(error);
      // A 400 is about the new password (too guessable, too long); a dead link answers 401.
      if (isApiError(error) && error.status === 400) setError('password', { type: 'server', message: reason }, { shouldFocus: true });
    }
  };

  return (
    <div className="flex min-h-[calc(100dvh-4rem)] items-start justify-center bg-gradient-to-b from-brand-50/70 to-slate-50 px-4 py-8 sm:items-center sm:py-12">
      <section className="card w-full max-w-md p-6 sm:p-8" aria-labelledby="reset-title">
        {!token ? (
          <div className="text-center">
            <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-rose-50 text-rose-600">
              <Icon name="alert" className="h-6 w-6" />
            </span>
            <h1 id="reset-title" className="mt-4 text-2xl font-bold text-slate-900">
              Invalid reset link
            </h1>
            <p className="mt-2 text-sm text-slate-600">This password reset link is missing its token or has been cut short. Ask for a new one.</p>
            <Link to="/forgot-password" className="btn btn-primary mt-6 w-full">
              Request a new link
            </Link>
          </div>
        ) : (
          <>
            <h1 id="reset-title" className="text-2xl font-bold tracking-tight text-slate-900">
              Set a new password
            </h1>
            <p className="mt-1 mb-6 text-sm text-slate-600">Choose a strong password you don&apos;t use anywhere else.</p>
            <form noValidate onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, ['password', 'confirmPassword']))} className="space-y-4">
              <PasswordField
                label="New password"
                autoComplete="new-password"
                visible={show}
                onToggleVisible={() => setShow((v) => !v)}
                toggleNoun="passwords"
                error={errors.password?.message}
                {...register('password')}
              />
              <PasswordField
                label="Confirm password"
                autoComplete="new-password"
                visible={show}
                hideToggle
                error={errors.confirmPassword?.message}
                {...register('confirmPassword')}
              />
              <button type="submit" className="btn btn-primary w-full" disabled={isSubmitting}>
                {isSubmitting ? <Spinner label="Saving" /> : null}
                Reset password
              </button>
            </form>
          </>
        )}
      </section>
    </div>
  );
}
