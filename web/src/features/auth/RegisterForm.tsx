import { PASSWORD_TOO_GUESSABLE, type RegisterFormInput, registerFormSchema } from '@schemas/auth';
import { USER_TYPE } from '@vocabulary';

import { Link, useNavigate } from 'react-router-dom';
import { EmailField, PasswordField, TextField, usePasswordsToggle } from '@/components/Field';
import { SubmitButton } from '@/components/FormActions';
import { getErrorMessage, isApiError } from '@/lib/api';
import type { LoginState } from '@/lib/authContext';
import { toastFirstError } from '@/lib/formErrors';
import { useHydrated } from '@/lib/hydrated';
import { forgetReferral, rememberedReferral } from '@/lib/referral';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { registerAccount } from './api/register-account';

// The order the spec checks them in: full name, email, password, then the match.
const FIELD_ORDER = ['fullName', 'email', 'password', 'confirmPassword'] as const;
const EMPTY: RegisterFormInput = { fullName: '', email: '', password: '', confirmPassword: '' };

interface Props {
  /** In a modal: "Sign In" switches to the login form instead of navigating. */
  onSwitchToLogin?: () => void;
  /** In a modal: after the account is created, the login form for a first sign-in. */
  onRegistered?: () => void;
}

export function RegisterForm({ onSwitchToLogin, onRegistered }: Props) {
  const navigate = useNavigate();
  const passwords = usePasswordsToggle();
  const { field, handleSubmit, reset, setError, isSubmitting } = useZodForm(registerFormSchema, EMPTY);
  const hydrated = useHydrated();

  const onValid = async (values: RegisterFormInput) => {
    const { confirmPassword: _omit, ...payload } = values;
    try {
      await registerAccount({
        ...payload,
        fullName: payload.fullName.trim(),
        email: payload.email.trim(),
        userType: USER_TYPE.user,
        referralCode: rememberedReferral(),
      });
      forgetReferral();
      toast.success('Account created successfully');
      reset(EMPTY);
      if (onRegistered) onRegistered();
      else navigate('/auth/login', { state: { registered: true } satisfies LoginState });
    } catch (error) {
      const reason = getErrorMessage(error);
      toast.error(`Failed to register. ${reason}`);
      // Under the field it is about: a taken email (409), a password the server finds too guessable (400).
      if (isApiError(error) && error.status === 409) setError('email', { type: 'server', message: reason }, { shouldFocus: true });
      if (isApiError(error) && error.status === 400 && reason === PASSWORD_TOO_GUESSABLE)
        setError('password', { type: 'server', message: reason }, { shouldFocus: true });
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, FIELD_ORDER))} aria-label="Create account">
      {/* Pre-rendered, the fields wait for React: typed before, the values would not reach the form's state. */}
      <fieldset disabled={!hydrated} className="min-w-0 space-y-4">
        <TextField label="Full Name" autoComplete="name" placeholder="Ada Lovelace" {...field('fullName')} />
        <EmailField label="Email Address" {...field('email')} />
        <PasswordField label="Password" autoComplete="new-password" placeholder="Create a password" {...passwords.toggle} {...field('password')} />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          placeholder="Repeat the password"
          {...passwords.follow}
          {...field('confirmPassword')}
        />
        <SubmitButton busy={isSubmitting} busyLabel="Creating account" className="w-full">
          Sign Up
        </SubmitButton>
        <p className="text-center text-sm text-slate-600">
          Already have an account?{' '}
          {onSwitchToLogin ? (
            <button type="button" className="link" onClick={onSwitchToLogin}>
              Sign In
            </button>
          ) : (
            <Link to="/auth/login" className="link">
              Sign In
            </Link>
          )}
        </p>
      </fieldset>
    </form>
  );
}
