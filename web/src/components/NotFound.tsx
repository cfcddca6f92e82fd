import { Link } from 'react-router-dom';

/** Any unknown path. */
export default function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-6 text-center">
      <p className="text-6xl font-extrabold text-brand-600">404</p>
      <h1 className="text-2xl font-bold text-slate-900">404 Not Found</h1>
      <p className="max-w-sm text-slate-600">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="btn btn-primary">
        Back to home
      </Link>
    </main>
  );
}
