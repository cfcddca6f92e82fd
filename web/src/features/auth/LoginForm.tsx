import { type LoginInput, loginSchema, TWO_FACTOR_REQUIRED } from '@schemas/auth';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { EmailField, PasswordField, TextField } from '@/components/Field';
import { SubmitButton } from '@/components/FormActions';
import { handleApiError, isAccountSuspended, isApiError } from '@/lib/api';
import { destinationAfterLogin, type LoginState, useAuth } from '@/lib/authContext';
import { chosenServiceOrderForm } from '@/lib/chosenService';
import { noteSignIn } from '@/lib/firstSignIn';
import { toastFirstError } from '@/lib/formErrors';
import { useHydrated } from '@/lib/hydrated';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { SuspendedNotice } from './SuspendedNotice';

const FIELD_ORDER = ['email', 'password', 'code'] as const;

interface Props {
  /** In a modal: "Register" switches to the register form instead of navigating. */
  onSwitchToRegister?: () => void;
  /** Called after a successful login or when a link leaves the form (closes a modal). */
  onDone?: () => void;
}

export function LoginForm({ onSwitchToRegister, onDone }: Props) {
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [remember, setRemember] = useState(true); // shown, never sent
  // Administrators with two-factor sign-in on: the server asks for a code after the password.
  const [needsCode, setNeedsCode] = useState(false);
  // A lost phone: one of the recovery codes saved at setup goes in the same `code` field instead.
  const [recovery, setRecovery] = useState(false);
  // Signed out because the account is suspended, or a sign-in just refused for it: say so, and how to reach support.
  const [suspended, setSuspended] = useState(() => Boolean((location.state as LoginState | null)?.suspended));
  const { field, handleSubmit, setError, setValue, clearErrors, isSubmitting } = useZodForm(loginSchema, { email: '', password: '' });
  const hydrated = useHydrated();

  const onValid = async (values: LoginInput) => {
    const code = needsCode ? values.code : undefined;
    try {
      const res = await login({ email: values.email.trim(), password: values.password, code });
      toast.success(res.message || 'Login successful');
      noteSignIn(res.user.id, res.firstSignIn);
      onDone?.();
      // The page asked for on the way here, else the service chosen before signing up (Register and a confirmation tab lose
      // the router state); the order form forgets that choice once open (AuthLayout, rendering meanwhile, must still see it).
      const from = (location.state as LoginState | null)?.from ?? chosenServiceOrderForm();
      navigate(destinationAfterLogin(Number(res.user?.userType), from), { replace: true });
    } catch (error) {
      const message = handleApiError(error);
      if (isAccountSuspended(error)) setSuspended(true);
      if (isApiError(error) && error.status === 401 && (error.data as { error?: string } | null)?.error === TWO_FACTOR_REQUIRED) {
        // The first answer asks for the code; one to a code that was sent says it was wrong (or already used).
        if (code) setError('code', { type: 'server', message }, { shouldFocus: true });
        else setNeedsCode(true);
      }
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, FIELD_ORDER))} aria-label="Sign in">
      {/* After hydrating: the pre-rendered page holds no notice, and a reload keeps the router state that asks for it. */}
      {suspended && hydrated ? (
        <div className="mb-4">
          <SuspendedNotice onLeave={onDone} />
        </div>
      ) : null}
      {/* Pre-rendered, the fields wait for React: typed before, the values would not reach the form's state. */}
      <fieldset disabled={!hydrated} className="min-w-0 space-y-4">
        <EmailField label="Email" {...field('email')} />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          placeholder="Your password"
          labelAction={
            <Link to="/forgot-password" onClick={onDone} className="link text-sm">
              Forgot Password?
            </Link>
          }
          {...field('password')}
        />
        {needsCode ? (
          <div className="space-y-1.5">
            <TextField
              key={recovery ? 'recovery' : 'app'}
              label={recovery ? 'Recovery code' : 'Authentication code'}
              autoComplete={recovery ? 'off' : 'one-time-code'}
              inputMode={recovery ? 'text' : 'numeric'}
              autoCapitalize="none"
              spellCheck={false}
              maxLength={recovery ? 11 : 6}
              placeholder={recovery ? 'abcde-fghij' : '123456'}
              hint={recovery ? 'One of the recovery codes you saved when you set up two-factor sign-in. Each works once.' : undefined}
              autoFocus
              {...field('code')}
            />
            <button
              type="button"
              className="link text-sm"
              onClick={() => {
                setRecovery((on) => !on);
                setValue('code', '');
                clearErrors('code');
              }}
            >
              {recovery ? 'Use a code from the app' : 'Use a recovery code'}
            </button>
          </div>
        ) : null}
        <label className="flex cursor-pointer items-center gap-2.5 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={remember}
            onChange={(e) => setRemember(e.target.checked)}
            className="h-4 w-4 rounded border-slate-300 accent-brand-600"
          />
          Remember Me
        </label>
        <SubmitButton busy={isSubmitting} busyLabel="Signing in" className="w-full">
          Sign In
        </SubmitButton>
        <p className="text-center text-sm text-slate-600">
          Don&apos;t have an account?{' '}
          {onSwitchToRegister ? (
            <button type="button" className="link" onClick={onSwitchToRegister}>
              Register
            </button>
          ) : (
            <Link to="/auth/register" className="link">
              Register
            </Link>
          )}
        </p>
      </fieldset>
    </form>
  );
}
