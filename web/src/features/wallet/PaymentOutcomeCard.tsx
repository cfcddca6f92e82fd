// The payment confirmation page's card: one screen for each thing the page can honestly say about a payment.
// The texts of "being processed", "Wallet Credited Successfully!" and "Payment Failed!" are the specification's
// (section 2); every screen that is not a final answer says there is no need to pay again.

import { Link } from 'react-router-dom';
import { Icon, type IconName } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';

export type ShownOutcome =
  | { status: 'checking' }
  | { status: 'success' }
  /** The provider declined it, with its reason when it gave one. */
  | { status: 'failed'; reason?: string }
  /** The provider has not settled it yet. */
  | { status: 'unsettled' }
  /** The check did not get through: no answer, or the server or the provider could not answer now. */
  | { status: 'unreachable' }
  /** The server answered why it cannot check this payment (not this account's, a garbled payload). */
  | { status: 'unchecked'; message: string }
  | { status: 'nothing' };

interface Props {
  outcome: ShownOutcome;
  /** A check is on its way (the page's own or the customer's). */
  checking?: boolean;
  onCheckAgain?: () => void;
}

const NO_NEED_TO_PAY_AGAIN = 'If you paid, your wallet is credited automatically as soon as the payment is confirmed; there is no need to pay again.';

export function PaymentOutcomeCard({ outcome, checking = false, onCheckAgain }: Props) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <section className="card w-full max-w-md p-8 text-center" aria-live="polite" aria-busy={outcome.status === 'checking'}>
        <OutcomeBody outcome={outcome} checking={checking} onCheckAgain={onCheckAgain} />
      </section>
    </div>
  );
}

function OutcomeBody({ outcome, checking, onCheckAgain }: Props) {
  switch (outcome.status) {
    case 'checking':
      return (
        <>
          <div className="flex justify-center text-brand-600">
            <Spinner className="h-12 w-12" label="" />
          </div>
          <h1 className="mt-5 text-xl font-bold text-slate-900">Your payment is being processed...</h1>
          <p className="mt-2 text-sm text-slate-600">Please wait while your payment is being processed... please do not close this page.</p>
        </>
      );
    case 'success':
      return (
        <>
          <Badge icon="checkCircle" tone="bg-emerald-50 text-emerald-600" />
          <h1 className="mt-5 text-xl font-bold text-slate-900">Wallet Credited Successfully!</h1>
          <p className="mt-2 text-sm text-slate-600">Your deposit has been processed and added to your wallet balance.</p>
        </>
      );
    case 'failed':
      return (
        <>
          <Badge icon="xCircle" tone="bg-rose-50 text-rose-600" />
          <h1 className="mt-5 text-xl font-bold text-slate-900">Payment Failed!</h1>
          <p className="mt-2 text-sm text-slate-600">Your payment has failed.</p>
          {outcome.reason ? (
            <p className="mt-2 text-sm text-slate-600">
              The payment provider's reason: <span className="font-semibold text-slate-900">{outcome.reason}</span>
            </p>
          ) : null}
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link to="/user/add-fund" className="btn btn-primary min-h-11">
              Try again
            </Link>
            <Link to="/user/transactions" className="btn btn-secondary min-h-11">
              Go to Transactions
            </Link>
          </div>
        </>
      );
    case 'unsettled':
      return (
        <Undecided
          title="Your payment is not confirmed yet"
          text={`The payment provider has not settled this payment yet. ${NO_NEED_TO_PAY_AGAIN}`}
          checking={checking}
          onCheckAgain={onCheckAgain}
        />
      );
    case 'unreachable':
      return (
        <Undecided
          title="We could not check your payment yet"
          text={`The check did not get through (the connection dropped or the service was busy), so your payment is not confirmed yet. ${NO_NEED_TO_PAY_AGAIN}`}
          checking={checking}
          onCheckAgain={onCheckAgain}
        />
      );
    case 'unchecked':
      return <Undecided title="We could not check this payment right now" text={outcome.message} checking={checking} onCheckAgain={onCheckAgain} />;
    case 'nothing':
      return (
        <Undecided
          title="Nothing to confirm here"
          text="There is no payment waiting for confirmation on this page. Your deposits and their status are in Transactions."
        />
      );
  }
}

function Badge({ icon, tone }: { icon: IconName; tone: string }) {
  return (
    <span className={`mx-auto flex h-16 w-16 items-center justify-center rounded-full ${tone}`}>
      <Icon name={icon} className="h-9 w-9" />
    </span>
  );
}

/** Neither credited nor declined: what is known, a way to ask again, and where to follow the deposit. */
function Undecided({ title, text, checking, onCheckAgain }: { title: string; text: string; checking?: boolean; onCheckAgain?: () => void }) {
  return (
    <>
      <Badge icon="info" tone="bg-slate-100 text-slate-600" />
      <h1 className="mt-5 text-xl font-bold text-slate-900">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {onCheckAgain ? (
          // Stays enabled while a check runs: a tap then simply asks once more.
          <button type="button" className="btn btn-secondary min-h-11" onClick={onCheckAgain} aria-busy={checking}>
            {checking ? <Spinner className="h-4 w-4" label="" /> : null}
            Check again
          </button>
        ) : null}
        <Link to="/user/transactions" className="btn btn-primary min-h-11">
          Go to Transactions
        </Link>
      </div>
    </>
  );
}
