import { resetPasswordSchema } from '@schemas/auth';
import { z } from '@schemas/zod';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AccountCard } from '@/components/AccountCard';
import { PasswordField, usePasswordsToggle } from '@/components/Field';
import { SubmitButton } from '@/components/FormActions';
import { handleApiError, isApiError } from '@/lib/api';
import { toastFirstError } from '@/lib/formErrors';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
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
  const passwords = usePasswordsToggle();
  const { field, handleSubmit, reset, setError, isSubmitting } = useZodForm(schema, { password: '', confirmPassword: '' });

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

  return !token ? (
    <AccountCard
      titleId="reset-title"
      icon={{ name: 'alert', tone: 'rose' }}
      title="Invalid reset link"
      intro="This password reset link is missing its token or has been cut short. Ask for a new one."
    >
      <Link to="/forgot-password" className="btn btn-primary mt-6 w-full">
        Request a new link
      </Link>
    </AccountCard>
  ) : (
    <AccountCard titleId="reset-title" title="Set a new password" intro="Choose a strong password you don't use anywhere else.">
      <form noValidate onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, ['password', 'confirmPassword']))} className="space-y-4">
        <PasswordField label="New password" autoComplete="new-password" {...passwords.toggle} {...field('password')} />
        <PasswordField label="Confirm password" autoComplete="new-password" {...passwords.follow} {...field('confirmPassword')} />
        <SubmitButton busy={isSubmitting} busyLabel="Saving" className="w-full">
          Reset password
        </SubmitButton>
      </form>
    </AccountCard>
  );
}
