// /unsubscribe?token=...: the one-click link at the foot of every email. It turns that kind of
// email off as soon as the page opens, and says which.
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Spinner } from '@/components/Spinner';
import { getErrorMessage } from '@/lib/api';
import { unsubscribe } from './api/unsubscribe';

type State = { kind: 'working' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

export default function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>({ kind: 'working' });
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    if (!token) {
      setState({ kind: 'failed', message: 'This unsubscribe link is not valid.' });
      return;
    }
    unsubscribe(token)
      .then((res) => setState({ kind: 'done', message: res.message }))
      .catch((error) => setState({ kind: 'failed', message: getErrorMessage(error) }));
  }, [token]);

  return (
    <section className="mx-auto max-w-lg px-4 py-12 text-center" aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title" className="text-2xl font-bold text-slate-900">
        Email preferences
      </h1>
      <div role="status" className="mt-4 text-slate-700">
        {state.kind === 'working' ? <Spinner label="Turning these emails off" /> : <p>{state.message}</p>}
      </div>
      <p className="mt-6 text-sm text-slate-600">
        Choose exactly which emails you get in{' '}
        <Link to="/user/settings" className="font-semibold text-brand-700 underline">
          Settings
        </Link>
        .
      </p>
    </section>
  );
}
