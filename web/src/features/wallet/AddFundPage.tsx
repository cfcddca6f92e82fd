// /user/add-fund: amount (quick picks, limits from settings/public) -> POST user/add-fund ->
// keep the answer encoded in sessionStorage 'payload' -> go to the payment provider.
// Money entered or paid stays in NGN whatever the display currency (amount, quick picks, limits,
// 'You will pay', balance); the display currency (else USD) only appears as a '≈' hint.

import type { z } from '@schemas/zod';
import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { useWalletBalance } from '@/api/wallet';
import { TextField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { Notice } from '@/components/Notice';
import { Skeleton } from '@/components/Skeleton';
import { Spinner } from '@/components/Spinner';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { formatAmount } from '@/lib/format';
import { toastFirstError } from '@/lib/formErrors';
import { cx } from '@/lib/hooks';
import { savePaymentPayload } from '@/lib/session';
import { toLimit, usePublicSettings } from '@/lib/settings';
import { type AddFundFormValues, addFundFormSchema, parseAmountText } from '@/lib/walletForms';
import { useZodForm } from '@/lib/zodForm';
import { startDeposit } from './api/start-deposit';
import { BankTransferCard } from './BankTransferCard';
import { WalletDebtNotice } from './WalletDebtNotice';

export const QUICK_AMOUNTS = [1000, 5000, 10000, 50000] as const;

export default function AddFundPage() {
  const money = useDisplayCurrency();
  const settings = usePublicSettings();
  const balance = useWalletBalance();
  const minDeposit = toLimit(settings.data?.minDeposit);
  const maxDeposit = toLimit(settings.data?.maxDeposit);
  const schema = useMemo(() => addFundFormSchema({ minDeposit, maxDeposit }), [minDeposit, maxDeposit]);

  // The schema's input is `unknown` (it preprocesses the text); the form's values are strings.
  const { field, handleSubmit, setValue, watch } = useZodForm(schema as unknown as z.ZodType<{ amount: string }, AddFundFormValues>, { amount: '' });
  const amountText = watch('amount');
  const amount = parseAmountText(amountText ?? '');
  const payable = Number.isFinite(amount) ? amount : 0;
  const equivalent = payable > 0 ? money.equivalent(payable, 'USD') : null;
  const balanceEquivalent = balance.data !== undefined ? money.equivalent(balance.data) : null;

  const start = useMutation({
    mutationFn: startDeposit,
    onSuccess: (res) => {
      if (!res.checkoutUrl) {
        handleApiError(new Error('The payment could not be started. Please try again.'));
        return;
      }
      savePaymentPayload({ checkoutUrl: res.checkoutUrl, signature: res.signature, amount: res.amount, reference: res.reference });
      window.location.assign(res.checkoutUrl);
    },
    // Kept on the page below the button, not in a 1.5 s toast: a refusal says what to do next.
    onError: (error) => handleApiError(error, { toast: false }),
  });
  const busy = start.isPending || start.isSuccess;

  return (
    <div className="mx-auto grid grid-cols-1 max-w-4xl gap-5 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="space-y-5">
        <section className="card p-5 sm:p-6" aria-labelledby="add-fund-title">
          <h1 id="add-fund-title" className="page-title">
            Add funds
          </h1>
          <p className="mt-1 text-sm text-slate-600">Top up your wallet by card. You will be taken to our secure payment partner and brought back here.</p>
          <WalletDebtNotice className="mt-4" />

          <form
            noValidate
            onSubmit={handleSubmit(
              (v) => start.mutate(Number(v.amount)),
              (e) => toastFirstError(e, ['amount']),
            )}
            className="mt-6 space-y-5"
          >
            <fieldset>
              <legend className="label">Quick amounts</legend>
              <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
                {QUICK_AMOUNTS.map((q) => {
                  const disabled = (minDeposit !== null && q < minDeposit) || (maxDeposit !== null && q > maxDeposit);
                  const selected = amount === q;
                  return (
                    <button
                      key={q}
                      type="button"
                      disabled={disabled}
                      aria-pressed={selected}
                      onClick={() => setValue('amount', String(q), { shouldValidate: true, shouldDirty: true })}
                      className={cx(
                        'min-h-12 rounded-xl border text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-40',
                        selected ? 'border-brand-600 bg-brand-600 text-white shadow-sm' : 'border-slate-200 bg-white text-slate-800 hover:border-brand-300',
                      )}
                    >
                      {formatAmount(q).replace(/\.00$/, '')}
                    </button>
                  );
                })}
              </div>
            </fieldset>

            <TextField
              label="Amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder="Enter amount"
              prefix="NGN"
              hint={
                settings.isPending ? undefined : minDeposit || maxDeposit ? (
                  <>
                    {minDeposit ? `Minimum ${formatAmount(minDeposit)}` : null}
                    {minDeposit && maxDeposit ? ' · ' : null}
                    {maxDeposit ? `Maximum ${formatAmount(maxDeposit)}` : null}
                  </>
                ) : undefined
              }
              {...field('amount')}
            />

            <div className="flex items-center justify-between rounded-xl bg-slate-50 px-4 py-3 text-sm">
              <span className="text-slate-600">You will pay</span>
              <span className="text-right">
                <span className="block text-base font-bold text-slate-900 tabular-nums">{formatAmount(payable)}</span>
                {equivalent ? <span className="block text-xs text-slate-500 tabular-nums">≈ {equivalent}</span> : null}
              </span>
            </div>

            <button type="submit" className="btn btn-primary w-full" disabled={busy}>
              {busy ? <Spinner label="Redirecting to payment" /> : <Icon name="card" />}
              {busy ? 'Redirecting to payment…' : 'Proceed to payment'}
            </button>
            {start.isError ? <Notice tone="rose">{getErrorMessage(start.error)}</Notice> : null}
          </form>
        </section>
        <BankTransferCard />
      </div>

      <aside className="space-y-4">
        <div className="card p-5">
          <p className="text-sm text-slate-600">Current balance</p>
          {balance.isPending ? (
            <Skeleton className="mt-1 h-8 w-32" />
          ) : (
            <p className="mt-1 text-2xl font-bold text-slate-900 tabular-nums">{formatAmount(balance.data ?? 0)}</p>
          )}
          {balanceEquivalent ? <p className="text-xs text-slate-500 tabular-nums">≈ {balanceEquivalent}</p> : null}
          <Link to="/user/transactions" className="link mt-3 inline-block text-sm">
            View transactions
          </Link>
        </div>
        <ul className="card space-y-3 p-5 text-sm text-slate-600">
          <li className="flex gap-2">
            <Icon name="lock" className="h-4 w-4 shrink-0 text-emerald-600" /> Card details are entered on the payment partner&apos;s page, never here.
          </li>
          <li className="flex gap-2">
            <Icon name="bolt" className="h-4 w-4 shrink-0 text-emerald-600" /> Your wallet is credited as soon as the payment is confirmed.
          </li>
          <li className="flex gap-2">
            <Icon name="info" className="h-4 w-4 shrink-0 text-emerald-600" /> Keep the page open when you return until it confirms the payment.
          </li>
        </ul>
      </aside>
    </div>
  );
}
