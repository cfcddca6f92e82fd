import { render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ToastContainer, toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { LoginForm } from '@/features/auth/LoginForm';
import { RegisterForm } from '@/features/auth/RegisterForm';
import { ApiError } from '@/lib/api';
import { AuthContext, type AuthContextValue } from '@/lib/authContext';
import { authStub, describedText, jsonResponse, mockFetch } from '../helpers';

function Where() {
  const { pathname } = useLocation();
  return <p data-testid="where">{pathname}</p>;
}

function renderWithAuth(ui: React.ReactNode, auth: Partial<AuthContextValue> = {}, initial: string | { pathname: string; state?: unknown } = '/auth/login') {
  const value = authStub(auth);
  render(
    <AuthContext.Provider value={value}>
      <MemoryRouter initialEntries={[initial]}>
        <Routes>
          <Route
            path="*"
            element={
              <>
                {ui}
                <Where />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
      <ToastContainer limit={1} autoClose={1500} />
    </AuthContext.Provider>,
  );
  return value;
}

const where = () => screen.getByTestId('where').textContent;

/** A login that succeeds for `account`, answered with the server's `message`. */
const loginAs = (account: { id: number; fullName: string; email: string; userType: number }, message = 'ok') =>
  vi.fn().mockResolvedValue({ accessToken: 'a', refreshToken: 'r', message, user: account });

/** Fills the login form as a person does and presses Sign In, ticking Remember Me first when asked. */
async function signIn(user: UserEvent, email: string, password: string, { rememberMe = false } = {}) {
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  if (rememberMe) await user.click(screen.getByLabelText('Remember Me'));
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('Login form', () => {
  it('shows the messages under the fields and the first one as a toast', async () => {
    const user = userEvent.setup();
    const error = vi.spyOn(toast, 'error');
    const auth = renderWithAuth(<LoginForm />);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(describedText(await screen.findByLabelText('Email'))).toBe('Email is required');
    expect(describedText(screen.getByLabelText('Password'))).toBe('Password is required');
    expect(error).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith('Email is required');
    // The toast itself is on screen (react-toastify container), not only requested.
    await waitFor(() => expect(document.querySelector('.Toastify')?.textContent).toContain('Email is required'));
    expect(auth.login).not.toHaveBeenCalled();
  });

  it('rejects an email whose top-level part is shorter than 2 letters', async () => {
    const user = userEvent.setup();
    const error = vi.spyOn(toast, 'error');
    renderWithAuth(<LoginForm />);
    await signIn(user, 'ada@example.c', 'secret');
    expect(describedText(screen.getByLabelText('Email'))).toBe('Invalid email address');
    expect(error).toHaveBeenCalledWith('Invalid email address');
  });

  it('accepts upper-case emails, sends only email and password, toasts the server message and sends a user to /user', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(toast, 'success');
    const login = loginAs({ id: 1, fullName: 'Ada', email: 'ADA@EXAMPLE.COM', userType: 2 }, 'Login successful');
    renderWithAuth(<LoginForm />, { login });
    await signIn(user, 'ADA@EXAMPLE.COM', 'secret', { rememberMe: true });

    await waitFor(() => expect(where()).toBe('/user'));
    expect(login).toHaveBeenCalledWith({ email: 'ADA@EXAMPLE.COM', password: 'secret' });
    expect(success).toHaveBeenCalledWith('Login successful');
  });

  it('sends an administrator to /admin', async () => {
    const user = userEvent.setup();
    const login = loginAs({ id: 9, fullName: 'Root', email: 'root@example.com', userType: 1 }, 'Welcome');
    renderWithAuth(<LoginForm />, { login });
    await signIn(user, 'root@example.com', 'secret');
    await waitFor(() => expect(where()).toBe('/admin'));
  });

  it('returns to the remembered location inside the right area', async () => {
    const user = userEvent.setup();
    const login = loginAs({ id: 1, fullName: 'Ada', email: 'a@b.co', userType: 2 });
    renderWithAuth(<LoginForm />, { login }, { pathname: '/auth/login', state: { from: { pathname: '/user/orders', search: '?page=2', hash: '' } } });
    await signIn(user, 'a@b.co', 'x');
    await waitFor(() => expect(where()).toBe('/user/orders'));
  });

  it('shows the shared handler message when login fails', async () => {
    const user = userEvent.setup();
    const error = vi.spyOn(toast, 'error');
    const login = vi.fn().mockRejectedValue(new ApiError(401, { message: 'Invalid email or password' }));
    renderWithAuth(<LoginForm />, { login });
    await signIn(user, 'ada@example.com', 'wrong');
    await waitFor(() => expect(error).toHaveBeenCalledWith('Invalid email or password'));
    expect(where()).toBe('/auth/login');
  });

  it('toggles the password visibility', async () => {
    const user = userEvent.setup();
    renderWithAuth(<LoginForm />);
    const input = screen.getByLabelText('Password');
    expect(input.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input.getAttribute('type')).toBe('text');
  });

  it('links to Forgot Password and Register', () => {
    renderWithAuth(<LoginForm />);
    expect(screen.getByRole('link', { name: /Forgot Password/ }).getAttribute('href')).toBe('/forgot-password');
    expect(screen.getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/auth/register');
  });
});

describe('Register form', () => {
  /** The sign-up form on its own; returns a user to fill it. */
  const renderRegisterForm = () => {
    renderWithAuth(<RegisterForm />, {}, '/auth/register');
    return userEvent.setup();
  };
  /** Types what is given into the sign-up form and presses Sign Up. */
  const signUp = async (user: UserEvent, v: Partial<Record<'name' | 'email' | 'password' | 'confirm', string>>) => {
    if (v.name) await user.type(screen.getByLabelText('Full Name'), v.name);
    if (v.email) await user.type(screen.getByLabelText('Email Address'), v.email);
    if (v.password) await user.type(screen.getByLabelText('Password'), v.password);
    if (v.confirm) await user.type(screen.getByLabelText('Confirm Password'), v.confirm);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
  };

  it('checks full name, email and password in order and toasts the first', async () => {
    const error = vi.spyOn(toast, 'error');
    const user = renderRegisterForm();
    await signUp(user, {});
    expect(describedText(screen.getByLabelText('Full Name'))).toBe('Full name is required');
    expect(describedText(screen.getByLabelText('Email Address'))).toBe('Email is required');
    expect(describedText(screen.getByLabelText('Password'))).toBe('Password is required');
    expect(error).toHaveBeenLastCalledWith('Full name is required');

    await signUp(user, { name: 'Ada Lovelace' });
    expect(error).toHaveBeenLastCalledWith('Email is required');

    await signUp(user, { email: 'ada@example' });
    expect(error).toHaveBeenLastCalledWith('Invalid email address');
  });

  it('reports mismatched passwords under Confirm Password', async () => {
    const error = vi.spyOn(toast, 'error');
    const fetch = mockFetch(() => jsonResponse(201, { message: 'created' }));
    const user = renderRegisterForm();
    await signUp(user, { name: 'Ada', email: 'ada@example.com', password: 'password-1', confirm: 'password-2' });
    expect(describedText(screen.getByLabelText('Confirm Password'))).toBe('Passwords do not match');
    expect(error).toHaveBeenLastCalledWith('Passwords do not match');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('one toggle shows and hides both password fields', async () => {
    const user = renderRegisterForm();
    const toggles = screen.getAllByRole('button', { name: /show password/i });
    expect(toggles).toHaveLength(1);
    await user.click(toggles[0]);
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('text');
    expect(screen.getByLabelText('Confirm Password').getAttribute('type')).toBe('text');
  });

  it('sends userType 2 without confirmPassword, toasts, clears the form and goes to /auth/login', async () => {
    const success = vi.spyOn(toast, 'success');
    const fetch = mockFetch(() => jsonResponse(201, { message: 'Registered' }));
    const user = renderRegisterForm();
    await signUp(user, { name: 'Ada Lovelace', email: 'ada@example.com', password: 'password-1', confirm: 'password-1' });

    await waitFor(() => expect(where()).toBe('/auth/login'));
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/v1/auth/register');
    expect(JSON.parse(String(init!.body))).toEqual({ fullName: 'Ada Lovelace', email: 'ada@example.com', password: 'password-1', userType: 2 });
    expect(success).toHaveBeenCalledWith('Account created successfully');
    expect((screen.getByLabelText('Full Name') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
  });

  it("prefixes the failure with 'Failed to register. '", async () => {
    const error = vi.spyOn(toast, 'error');
    mockFetch(() => jsonResponse(409, { message: 'Email already registered' }));
    const user = renderRegisterForm();
    await signUp(user, { name: 'Ada', email: 'ada@example.com', password: 'password-1', confirm: 'password-1' });
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to register. Email already registered'));
    expect(where()).toBe('/auth/register');
    expect(describedText(screen.getByLabelText('Email Address'))).toBe('Email already registered');
  });

  it("shows the server's refusal of a guessable password under the password", async () => {
    const refusal = 'This password is too common or easy to guess. Try a longer phrase or add unusual words.';
    mockFetch(() => jsonResponse(400, { message: refusal, error: 'Bad Request' }));
    const user = renderRegisterForm();
    await signUp(user, { name: 'Ada', email: 'ada@example.com', password: 'qwerty123', confirm: 'qwerty123' });
    await waitFor(() => expect(describedText(screen.getByLabelText('Password'))).toBe(refusal));
  });
});
