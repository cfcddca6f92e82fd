import { forgotPasswordSchema } from '@schemas/auth';
import type { z } from '@schemas/zod';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { AccountCard } from '@/components/AccountCard';
import { EmailField } from '@/components/Field';
import { SubmitButton } from '@/components/FormActions';
import { handleApiError } from '@/lib/api';
import { toastFirstError } from '@/lib/formErrors';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { sendPasswordReset } from './api/send-password-reset';

type Values = z.infer<typeof forgotPasswordSchema>;

export default function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { field, handleSubmit, isSubmitting } = useZodForm(forgotPasswordSchema, { email: '' });

  const onValid = async ({ email }: Values) => {
    try {
      const res = await sendPasswordReset(email.trim());
      toast.success(res.message || 'Check your email for a reset link');
      setSentTo(email.trim());
    } catch (error) {
      handleApiError(error);
    }
  };

  return sentTo ? (
    <AccountCard
      titleId="forgot-title"
      icon={{ name: 'mail', tone: 'emerald' }}
      title="Check your email"
      intro={
        <>
          If an account exists for <span className="font-medium text-slate-900">{sentTo}</span>, we have sent a link to reset the password. The link expires
          soon, so use it right away.
        </>
      }
    >
      <div className="mt-6 flex flex-col gap-2">
        <Link to="/auth/login" className="btn btn-primary w-full">
          Back to Sign In
        </Link>
        <button type="button" className="btn btn-ghost w-full" onClick={() => setSentTo(null)}>
          Use another email
        </button>
      </div>
    </AccountCard>
  ) : (
    <AccountCard titleId="forgot-title" title="Forgot your password?" intro="Enter the email you signed up with and we'll send you a reset link.">
      <form noValidate onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, ['email']))} className="space-y-4">
        <EmailField label="Email Address" {...field('email')} />
        <SubmitButton busy={isSubmitting} busyLabel="Sending" className="w-full">
          Send reset link
        </SubmitButton>
        <p className="text-center text-sm text-slate-600">
          Remembered it?{' '}
          <Link to="/auth/login" className="link">
            Sign In
          </Link>
        </p>
      </form>
    </AccountCard>
  );
}
