// The public shell's Sign in and Create your account dialogs. A chunk of its own (PublicLayout
// loads it when a visitor heads for the buttons or opens one): no public page shows it at first.
import { lazy, Suspense, useState } from 'react';
import { Modal } from '@/components/Modal';
import { Spinner } from '@/components/Spinner';

export type AuthDialog = 'login' | 'register';

// The forms (and their validation libraries) load only when a dialog is wanted.
const loadLoginForm = () => import('@/features/auth/LoginForm');
const loadRegisterForm = () => import('@/features/auth/RegisterForm');
export const loadForm: Record<AuthDialog, () => Promise<unknown>> = { login: loadLoginForm, register: loadRegisterForm };
const LoginForm = lazy(() => loadLoginForm().then((m) => ({ default: m.LoginForm })));
const RegisterForm = lazy(() => loadRegisterForm().then((m) => ({ default: m.RegisterForm })));
const formFallback = (
  <div className="flex h-72 items-center justify-center text-brand-600">
    <Spinner className="h-8 w-8" />
  </div>
);

/** `open` names the dialog shown; `onOpen` switches to the other one, or closes both with null. */
export default function AuthModal({ open, onOpen }: { open: AuthDialog | null; onOpen: (which: AuthDialog | null) => void }) {
  // Straight after creating the account, the sign-in is a first one: no "Welcome back".
  const [justRegistered, setJustRegistered] = useState(false);
  const switchTo = (which: AuthDialog | null) => {
    setJustRegistered(false);
    onOpen(which);
  };
  return (
    <>
      <Modal
        open={open === 'login'}
        onClose={() => switchTo(null)}
        title="Sign in"
        description={justRegistered ? 'Your account is ready. Sign in to place your first order.' : 'Welcome back! Enter your details to continue.'}
      >
        <Suspense fallback={formFallback}>
          <LoginForm onSwitchToRegister={() => switchTo('register')} onDone={() => switchTo(null)} />
        </Suspense>
      </Modal>
      <Modal open={open === 'register'} onClose={() => switchTo(null)} title="Create your account" description="Join in seconds and start growing.">
        <Suspense fallback={formFallback}>
          <RegisterForm
            onSwitchToLogin={() => switchTo('login')}
            onRegistered={() => {
              switchTo('login');
              setJustRegistered(true);
            }}
          />
        </Suspense>
      </Modal>
    </>
  );
}
