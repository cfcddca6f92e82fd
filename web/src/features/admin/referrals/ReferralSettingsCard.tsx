// The referral programme's settings on /admin/referrals: the switch, the commission, how long each
// commission is held before the referrer can spend it, and the most one referred account can earn.

import { MAX_REFERRAL_HOLD_DAYS, referralSettingsSchema } from '@schemas/referrals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorState } from '@/components/EmptyState';
import { TextField } from '@/components/Field';
import { Switch } from '@/components/Switch';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useReferralSettings } from './api/get-referral-settings';
import { referralAdminKeys } from './api/keys';
import { saveReferralSettings } from './api/save-referral-settings';

const SWITCH_LABEL = 'Pay referral commissions';

type FieldName = 'ratePercent' | 'holdDays' | 'capPerReferred';

/** A whole number of days as typed, or NaN (which the schema refuses with its own message). */
const daysFrom = (text: string) => (/^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

export function ReferralSettingsCard() {
  const queryClient = useQueryClient();
  const current = useReferralSettings();
  const [enabled, setEnabled] = useState(true);
  const [ratePercent, setRatePercent] = useState('');
  const [holdDays, setHoldDays] = useState('');
  const [cap, setCap] = useState('');
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  useEffect(() => {
    if (!current.data) return;
    setEnabled(current.data.enabled);
    setRatePercent(current.data.ratePercent);
    setHoldDays(String(current.data.holdDays));
    setCap(current.data.capPerReferred ?? '');
  }, [current.data]);

  const save = useMutation({
    mutationFn: saveReferralSettings,
    onSuccess: (res) => {
      toast.success(res.message);
      void queryClient.invalidateQueries({ queryKey: referralAdminKeys.all });
    },
    onError: (e) => handleApiError(e, { toast: true }),
  });
  const submit = () => {
    const parsed = referralSettingsSchema.safeParse({ enabled, ratePercent, holdDays: daysFrom(holdDays), capPerReferred: cap.trim() === '' ? null : cap });
    if (!parsed.success) {
      const found: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) {
        const name = issue.path[0] as FieldName;
        found[name] ??= issue.message;
      }
      setErrors(found);
      toast.error(parsed.error.issues[0].message);
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };
  const disabled = current.isPending;

  return (
    <section className="card space-y-4 p-4 sm:p-5" aria-label="Referral settings">
      {current.isError ? <ErrorState message={getErrorMessage(current.error)} onRetry={() => void current.refetch()} /> : null}
      <div className="flex items-start gap-3">
        <Switch checked={enabled} onChange={setEnabled} label={SWITCH_LABEL} disabled={disabled} />
        {/* The switch's own name is for screen readers only; this is what sighted administrators read beside it. */}
        <div className="text-sm">
          <p className="font-medium text-slate-900" aria-hidden="true">
            {SWITCH_LABEL}: {enabled ? 'On' : 'Off'}
          </p>
          <p className="text-slate-600">
            {enabled
              ? 'Referrers earn the commission below on each deposit of the accounts they brought.'
              : 'No commission is earned on new deposits; commissions already earned are kept.'}
          </p>
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          label="Commission (% of each deposit)"
          inputMode="decimal"
          value={ratePercent}
          onChange={(e) => setRatePercent(e.target.value)}
          error={errors.ratePercent}
          disabled={disabled}
        />
        <TextField
          label="Hold (days)"
          inputMode="numeric"
          value={holdDays}
          onChange={(e) => setHoldDays(e.target.value)}
          error={errors.holdDays}
          hint={`Commission is held this many days before the referrer can spend it; a refunded or disputed deposit takes it back. 0 to ${MAX_REFERRAL_HOLD_DAYS}.`}
          disabled={disabled}
        />
        <TextField
          label="Cap per referred account (NGN)"
          inputMode="decimal"
          value={cap}
          onChange={(e) => setCap(e.target.value)}
          error={errors.capPerReferred}
          hint="The most one referred account can earn its referrer. Leave empty for no cap."
          placeholder="No cap"
          disabled={disabled}
        />
      </div>
      <button type="button" className="btn btn-primary" onClick={submit} disabled={save.isPending || disabled}>
        Save referral settings
      </button>
    </section>
  );
}
