// Optional two-factor sign-in for administrators: set up with any authenticator app
// (the secret or the otpauth link), confirm with a first code, or turn it off with a fresh one.

import { twoFactorCodeSchema } from '@schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { TextField } from '@/components/Field';
import { Spinner } from '@/components/Spinner';
import { handleApiError } from '@/lib/api';
import { toast } from '@/lib/toast';
import { twoFactorStatusKey, useTwoFactorStatus } from './api/get-two-factor-status';
import { startTwoFactorSetup, type TwoFactorSetup } from './api/start-two-factor-setup';
import { switchTwoFactor, type TwoFactorSwitch } from './api/switch-two-factor';

export function TwoFactorCard() {
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();

  const start = useMutation({
    mutationFn: startTwoFactorSetup,
    onSuccess: (answer) => setSetup(answer),
    onError: (error) => handleApiError(error),
  });
  const confirm = useMutation({
    mutationFn: (action: TwoFactorSwitch) => switchTwoFactor(action, code),
    onSuccess: (answer) => {
      toast.success(answer.message);
      setSetup(null);
      setCode('');
      void queryClient.invalidateQueries({ queryKey: twoFactorStatusKey });
    },
    onError: (error) => handleApiError(error),
  });

  const submit = (action: TwoFactorSwitch) => {
    const parsed = twoFactorCodeSchema.safeParse({ code });
    setCodeError(parsed.success ? undefined : parsed.error.issues[0].message);
    if (parsed.success) confirm.mutate(action);
  };

  const enabled = status.data?.enabled ?? false;
  return (
    <section className="card space-y-4 p-5 sm:p-6" aria-labelledby="two-factor-title">
      <div>
        <h2 id="two-factor-title" className="font-semibold text-slate-900">
          Two-factor sign-in
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {enabled
            ? 'On: signing in asks for a code from your authenticator app after the password.'
            : 'Protect the admin area with a code from an authenticator app (Google Authenticator, 1Password, Authy...).'}
        </p>
      </div>
      {setup ? (
        <div className="space-y-2 rounded-lg bg-slate-50 p-4 text-sm">
          <p>Add this key to your authenticator app, or open the link on your phone:</p>
          <p className="font-mono text-base tracking-wider break-all text-slate-900">{setup.secret.replace(/(.{4})/g, '$1 ').trim()}</p>
          <a className="link break-all" href={setup.otpauthUrl}>
            Open in authenticator app
          </a>
        </div>
      ) : null}
      {enabled || setup ? (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <TextField
            label="Code from the app"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={codeError}
            containerClassName="sm:w-48"
          />
          <button
            type="button"
            className={enabled ? 'btn btn-secondary' : 'btn btn-primary'}
            disabled={confirm.isPending}
            onClick={() => submit(enabled ? 'disable' : 'enable')}
          >
            {confirm.isPending ? <Spinner label="Saving" /> : null}
            {enabled ? 'Turn off' : 'Confirm and turn on'}
          </button>
        </div>
      ) : (
        <button type="button" className="btn btn-primary" disabled={start.isPending || status.isPending} onClick={() => start.mutate()}>
          {start.isPending ? <Spinner label="Preparing" /> : null}
          Set up two-factor sign-in
        </button>
      )}
    </section>
  );
}
