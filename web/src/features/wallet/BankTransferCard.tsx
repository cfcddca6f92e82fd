// Add fund's second way to pay: a personal account number to send bank transfers to, asked for
// once; transfers to it are credited automatically. Shown only while the shop offers it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CopyButton } from '@/components/CopyButton';
import { Icon } from '@/components/Icon';
import { Skeleton } from '@/components/Skeleton';
import { getErrorMessage } from '@/lib/api';
import { usePublicSettings } from '@/lib/settings';
import { dedicatedAccountQuery, useDedicatedAccount } from './api/get-dedicated-account';
import { requestDedicatedAccount } from './api/request-dedicated-account';

export function BankTransferCard() {
  const queryClient = useQueryClient();
  const offered = usePublicSettings().data?.bankTransfer === true;
  const account = useDedicatedAccount(offered);
  const request = useMutation({
    mutationFn: requestDedicatedAccount,
    onSuccess: (res) => queryClient.setQueryData(dedicatedAccountQuery.queryKey, res),
  });
  if (!offered) return null;
  const ready = account.data?.status === 'active' && account.data.accountNumber ? account.data : null;

  return (
    <section className="card p-5 sm:p-6" aria-labelledby="bank-transfer-title">
      <h2 id="bank-transfer-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Icon name="wallet" className="h-5 w-5 text-brand-600" /> Pay by bank transfer
      </h2>
      {account.isPending ? (
        <Skeleton className="mt-3 h-24 w-full" />
      ) : ready ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Send any amount to your own account number from any Nigerian bank app. It is credited to your wallet automatically within minutes.
          </p>
          <dl className="mt-4 space-y-3 rounded-xl bg-slate-50 p-4">
            <div>
              <dt className="text-xs text-slate-500">Bank</dt>
              <dd className="font-semibold text-slate-900">{ready.bankName}</dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Account number</dt>
              <dd className="flex flex-wrap items-center gap-3">
                <span className="text-2xl font-bold tracking-wider text-slate-900 tabular-nums">{ready.accountNumber}</span>
                <CopyButton text={ready.accountNumber!} label="Copy account number" />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Account name</dt>
              <dd className="font-semibold break-words text-slate-900">{ready.accountName}</dd>
            </div>
          </dl>
          {ready.sandboxTransferUrl ? (
            <p className="mt-3 text-sm">
              <a className="link" href={ready.sandboxTransferUrl} target="_blank" rel="noreferrer">
                Send a test transfer
              </a>{' '}
              <span className="text-slate-500">(sandbox: test money only)</span>
            </p>
          ) : null}
        </>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">Get your own account number once, then fund your wallet by transfer from any bank app, any time.</p>
          <button type="button" className="btn btn-secondary mt-4" disabled={request.isPending} onClick={() => request.mutate()}>
            {request.isPending ? 'Getting your account number…' : 'Get my account number'}
          </button>
          {request.isError ? (
            <p role="alert" className="mt-2 text-sm text-rose-700">
              {getErrorMessage(request.error)}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
