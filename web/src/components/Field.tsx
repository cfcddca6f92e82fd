import {
  type ChangeEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
  useState,
} from 'react';
import { cx } from '@/lib/hooks';
import { Icon } from './Icon';

interface FieldShellProps {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
  labelAction?: ReactNode;
}

/** Label above, control, then the hint or the error message (tied with aria-describedby). */
function FieldShell({ id, label, error, hint, children, className, labelAction }: FieldShellProps) {
  return (
    <div className={className}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="label">
          {label}
        </label>
        {labelAction}
      </div>
      {children}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The control's side of a field: its id (the one given, else a generated one) and its ties to the error or hint the shell shows under it. */
function useControlProps(id: string | undefined, error?: string, hint?: ReactNode) {
  const auto = useId();
  const fid = id ?? auto;
  return { id: fid, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${fid}-error` : hint ? `${fid}-hint` : undefined };
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  id?: string;
  ref?: Ref<HTMLInputElement>;
  containerClassName?: string;
  labelAction?: ReactNode;
  /** Content shown inside the input on the left (the currency, NGN). */
  prefix?: ReactNode;
};

export function TextField({ label, error, hint, id, ref, className, containerClassName, labelAction, prefix, ...rest }: InputProps) {
  const control = useControlProps(id, error, hint);
  return (
    <FieldShell id={control.id} label={label} error={error} hint={hint} className={containerClassName} labelAction={labelAction}>
      <div className="relative">
        {prefix ? <span className="pointer-events-none absolute inset-y-0 left-3.5 flex items-center text-slate-500">{prefix}</span> : null}
        <input ref={ref} {...control} className={cx('input', prefix ? 'pl-14' : undefined, className)} {...rest} />
      </div>
    </FieldShell>
  );
}

type PasswordProps = Omit<InputProps, 'type' | 'prefix'> & {
  /** Controlled visibility (one toggle shared by several fields); omit for a field of its own. */
  visible?: boolean;
  onToggleVisible?: () => void;
  /** Hide this field's own toggle button (another field carries the shared one). */
  hideToggle?: boolean;
  /** What the toggle shows/hides: 'password' or, for a shared toggle, 'passwords'. */
  toggleNoun?: string;
};

/** Password input with a show/hide toggle button inside it. */
export function PasswordField({
  visible,
  onToggleVisible,
  hideToggle = false,
  toggleNoun = 'password',
  label,
  error,
  hint,
  id,
  ref,
  className,
  containerClassName,
  labelAction,
  ...rest
}: PasswordProps) {
  const control = useControlProps(id, error, hint);
  const [ownVisible, setOwnVisible] = useState(false);
  const shown = visible ?? ownVisible;
  const toggle = onToggleVisible ?? (() => setOwnVisible((v) => !v));
  return (
    <FieldShell id={control.id} label={label} error={error} hint={hint} className={containerClassName} labelAction={labelAction}>
      <div className="relative">
        <input ref={ref} {...control} type={shown ? 'text' : 'password'} className={cx('input', !hideToggle && 'pr-12', className)} {...rest} />
        {hideToggle ? null : (
          <button
            type="button"
            onClick={toggle}
            aria-label={shown ? `Hide ${toggleNoun}` : `Show ${toggleNoun}`}
            aria-pressed={shown}
            className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-xl text-slate-500 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <Icon name={shown ? 'eyeOff' : 'eye'} />
          </button>
        )}
      </div>
    </FieldShell>
  );
}

/** One show/hide toggle for a group of password fields (new + confirm): spread `toggle` on the field that carries it, `follow` on the others. */
export function usePasswordsToggle() {
  const [visible, setVisible] = useState(false);
  return {
    toggle: { visible, onToggleVisible: () => setVisible((v) => !v), toggleNoun: 'passwords' },
    follow: { visible, hideToggle: true },
  };
}

/** A TextField held in component state (a small form without react-hook-form): its value, and an error that typing clears. */
export function useTextFieldState(initial = '') {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    setValue(e.target.value);
    setError(null);
  };
  return { value, setError, props: { value, onChange, error: error ?? undefined } };
}

/** The user's own email address (sign in, sign up, reset): the browser fills it in and phones show the email keyboard. */
export function EmailField(props: Omit<InputProps, 'type' | 'autoComplete' | 'inputMode'>) {
  return <TextField type="email" autoComplete="email" inputMode="email" placeholder="you@example.com" {...props} />;
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  id?: string;
  ref?: Ref<HTMLSelectElement>;
  containerClassName?: string;
};

export function SelectField({ label, error, hint, id, ref, className, containerClassName, children, ...rest }: SelectProps) {
  const control = useControlProps(id, error, hint);
  return (
    <FieldShell id={control.id} label={label} error={error} hint={hint} className={containerClassName}>
      <select
        ref={ref}
        {...control}
        className={cx('input appearance-none bg-[length:1.25rem] bg-[right_0.75rem_center] bg-no-repeat pr-10', className)}
        style={{
          backgroundImage:
            "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='none' stroke='%2364748b' stroke-width='2'%3E%3Cpath d='M6 9l6 6 6-6'/%3E%3C/svg%3E\")",
        }}
        {...rest}
      >
        {children}
      </select>
    </FieldShell>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  label: ReactNode;
  /** Monospace, for lists and codes (mass orders); prose (page texts) reads better without. */
  mono?: boolean;
  error?: string;
  hint?: ReactNode;
  id?: string;
  ref?: Ref<HTMLTextAreaElement>;
  containerClassName?: string;
};

export function TextAreaField({ label, error, hint, id, ref, className, containerClassName, mono = true, ...rest }: TextAreaProps) {
  const control = useControlProps(id, error, hint);
  return (
    <FieldShell id={control.id} label={label} error={error} hint={hint} className={containerClassName}>
      <textarea ref={ref} {...control} className={cx('input min-h-28 text-sm', mono && 'font-mono', className)} {...rest} />
    </FieldShell>
  );
}
