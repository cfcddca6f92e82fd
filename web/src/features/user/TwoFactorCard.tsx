// Two-factor sign-in for administrators: set up by scanning a QR code of the otpauth link (or typing the
// key, or opening the link on the phone itself), confirmed with a first code; the ten recovery codes are
// shown once then. Once on: since when, the recovery codes left, new ones for a current code (the old
// ones stop), and turning it off with a fresh code unless the site requires it.

import { twoFactorCodeSchema } from '@schemas/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, type ReactNode, Suspense, useState } from 'react';
import { TextField } from '@/components/Field';
import { Skeleton } from '@/components/Skeleton';
import { Spinner } from '@/components/Spinner';
import { handleApiError } from '@/lib/api';
import { useAuth } from '@/lib/authContext';
import { formatDate } from '@/lib/format';
import { toast } from '@/lib/toast';
import { disableTwoFactor } from './api/disable-two-factor';
import { enableTwoFactor } from './api/enable-two-factor';
import { twoFactorStatusKey, useTwoFactorStatus } from './api/get-two-factor-status';
import { type RecoveryCodes, regenerateRecoveryCodes } from './api/regenerate-recovery-codes';
import { startTwoFactorSetup, type TwoFactorSetup } from './api/start-two-factor-setup';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';

const QrCode = lazy(() => import('./QrCode'));

/** Below this many recovery codes left, the card says to make new ones. */
const FEW_CODES_LEFT = 3;

type CodeAction = 'enable' | 'regenerate' | 'disable';
const SEND: Record<CodeAction, (code: string) => Promise<{ message: string; data?: { recoveryCodes: RecoveryCodes } }>> = {
  enable: enableTwoFactor,
  regenerate: regenerateRecoveryCodes,
  disable: disableTwoFactor,
};
const CONFIRM_LABEL: Record<CodeAction, string> = {
  enable: 'Confirm and turn on',
  regenerate: 'Generate new codes',
  disable: 'Turn off two-factor sign-in',
};

/** `onCodesSaved`: after the recovery codes shown on enabling are put away (the forced setup then moves on). */
export function TwoFactorCard({ onCodesSaved }: { onCodesSaved?: () => void }) {
  const queryClient = useQueryClient();
  const { user, reloadProfile } = useAuth();
  const status = useTwoFactorStatus();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [asking, setAsking] = useState<'regenerate' | 'disable' | null>(null);
  const [shown, setShown] = useState<{ codes: RecoveryCodes; message: string; enabled: boolean } | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();

  const start = useMutation({ mutationFn: startTwoFactorSetup, onSuccess: setSetup, onError: (error) => handleApiError(error) });
  const act = useMutation({
    mutationFn: (action: CodeAction) => SEND[action](code.trim()),
    onSuccess: (answer, action) => {
      setSetup(null);
      setAsking(null);
      setCode('');
      if (answer.data?.recoveryCodes) setShown({ codes: answer.data.recoveryCodes, message: answer.message, enabled: action === 'enable' });
      else toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: twoFactorStatusKey });
      // The session's record says whether the site still holds the administrator at the setup screen.
      if (action === 'enable') void reloadProfile();
    },
    onError: (error) => setCodeError(handleApiError(error)),
  });

  const confirm = (action: CodeAction) => (event: FormEvent) => {
    event.preventDefault();
    const parsed = twoFactorCodeSchema.safeParse({ code });
    setCodeError(parsed.success ? undefined : parsed.error.issues[0].message);
    if (parsed.success) act.mutate(action);
  };
  const cancel = () => {
    setSetup(null);
    setAsking(null);
    setCode('');
    setCodeError(undefined);
  };
  const codeForm = (action: CodeAction) => (
    <form noValidate onSubmit={confirm(action)} className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <TextField
        label="Code from the app"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={codeError}
        autoFocus={action !== 'enable'}
        containerClassName="sm:w-48"
      />
      <div className="flex gap-2 sm:mt-7">
        <button type="submit" className={action === 'disable' ? 'btn btn-danger' : 'btn btn-primary'} disabled={act.isPending}>
          {act.isPending ? <Spinner label="" className="h-4 w-4" /> : null}
          {CONFIRM_LABEL[action]}
        </button>
        <button type="button" className="btn btn-ghost" onClick={cancel} disabled={act.isPending}>
          Cancel
        </button>
      </div>
    </form>
  );

  const state = status.data;
  const enabled = state?.enabled ?? false;
  let body: ReactNode;
  if (shown) {
    body = (
      <RecoveryCodesPanel
        codes={shown.codes}
        message={shown.message}
        account={user?.email ?? ''}
        onSaved={() => {
          setShown(null);
          if (shown.enabled) onCodesSaved?.();
        }}
      />
    );
  } else if (status.isPending) {
    body = <Skeleton className="h-11 w-56" />;
  } else if (enabled && state) {
    const few = state.recoveryCodesLeft <= FEW_CODES_LEFT;
    body = (
      <div className="space-y-4">
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">On since</dt>
          <dd className="text-slate-900">{formatDate(state.enabledAt) || '—'}</dd>
          <dt className="text-slate-500">Recovery codes left</dt>
          <dd className={few ? 'font-semibold text-amber-800' : 'text-slate-900'}>
            {state.recoveryCodesLeft} of 10{few ? ': make new ones before they run out' : ''}
          </dd>
        </dl>
        {asking ? (
          codeForm(asking)
        ) : (
          <div className="flex flex-col gap-2 sm:flex-row">
            <button type="button" className="btn btn-secondary" onClick={() => setAsking('regenerate')}>
              Generate new recovery codes
            </button>
            {state.required ? null : (
              <button type="button" className="btn btn-ghost text-rose-700 hover:bg-rose-50" onClick={() => setAsking('disable')}>
                Turn off
              </button>
            )}
          </div>
        )}
        {state.required ? <p className="text-xs text-slate-500">This shop requires two-factor sign-in for administrators, so it stays on.</p> : null}
      </div>
    );
  } else if (setup) {
    body = <SetupSteps setup={setup}>{codeForm('enable')}</SetupSteps>;
  } else {
    body = (
      <button type="button" className="btn btn-primary" disabled={start.isPending} onClick={() => start.mutate()}>
        {start.isPending ? <Spinner label="Preparing" /> : null}
        Set up two-factor sign-in
      </button>
    );
  }

  return (
    <section className="card space-y-4 p-5 sm:p-6" aria-labelledby="two-factor-title">
      <div>
        <h2 id="two-factor-title" className="font-semibold text-slate-900">
          Two-factor sign-in
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {enabled
            ? 'On: signing in asks for a code from your authenticator app after the password. A recovery code signs you in if you lose your phone.'
            : 'Protect the admin area with a code from an authenticator app (Google Authenticator, 1Password, Authy...).'}
        </p>
      </div>
      {body}
    </section>
  );
}

/** Scan, or type the key, or open the link on the phone that holds the app; then the first code confirms it. */
function SetupSteps({ setup, children }: { setup: TwoFactorSetup; children: ReactNode }) {
  return (
    <ol className="space-y-5 text-sm text-slate-700">
      <li className="space-y-3">
        <p>
          <span className="font-semibold text-slate-900">1. Scan this QR code</span> with your authenticator app.
        </p>
        <div className="h-48 w-48 rounded-lg border border-slate-200 p-1">
          <Suspense fallback={<Skeleton className="h-full w-full" />}>
            <QrCode value={setup.otpauthUrl} label="QR code for your authenticator app" />
          </Suspense>
        </div>
      </li>
      <li className="space-y-2 rounded-lg bg-slate-50 p-4">
        <p>Cannot scan it? Add this key to the app by hand, or open the link on the phone that has the app:</p>
        <p className="font-mono text-base tracking-wider break-all text-slate-900">{setup.secret.replace(/(.{4})/g, '$1 ').trim()}</p>
        <a className="link break-all" href={setup.otpauthUrl}>
          Open in authenticator app
        </a>
      </li>
      <li className="space-y-3">
        <p>
          <span className="font-semibold text-slate-900">2. Enter the 6-digit code</span> the app shows now.
        </p>
        {children}
      </li>
    </ol>
  );
}
