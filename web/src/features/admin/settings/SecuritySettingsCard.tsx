// Site Settings' security part: "Administrators must use two-factor". Saved as soon as it is switched,
// after a confirmation, since it changes how every administrator signs in.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Skeleton } from '@/components/Skeleton';
import { Switch } from '@/components/Switch';
import { handleApiError } from '@/lib/api';
import { confirmAction } from '@/lib/confirm';
import { toast } from '@/lib/toast';
import { useSecuritySettings } from './api/get-security-settings';
import { settingsKeys } from './api/keys';
import { saveSecuritySettings } from './api/save-security-settings';

const REQUIRE_LABEL = 'Administrators must use two-factor';

export function SecuritySettingsCard() {
  const queryClient = useQueryClient();
  const settings = useSecuritySettings();
  const save = useMutation({
    mutationFn: saveSecuritySettings,
    onSuccess: (res) => {
      toast.success(res.message || 'Security settings saved');
      queryClient.setQueryData(settingsKeys.security, res.data);
    },
    onError: (error) => handleApiError(error),
  });

  const change = async (required: boolean) => {
    const confirmed = await confirmAction(
      required
        ? {
            title: 'Require two-factor for administrators?',
            text: 'Every administrator without it, you included if you have not set it up, is taken to the setup screen before anything else.',
            confirmText: 'Yes, require it',
          }
        : {
            title: 'Stop requiring two-factor?',
            text: 'Administrators can then sign in with a password alone, and turn two-factor off. A stolen password would be enough to take over the shop.',
            confirmText: 'Yes, stop requiring it',
            danger: true,
          },
    );
    if (confirmed) save.mutate({ adminTwoFactorRequired: required });
  };

  const required = save.isPending ? save.variables.adminTwoFactorRequired : settings.data?.adminTwoFactorRequired;
  return (
    <section className="card p-4 sm:p-6" aria-labelledby="security-title">
      <h2 id="security-title" className="font-semibold text-slate-900">
        Security
      </h2>
      <div className="mt-4 flex items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm font-medium text-slate-900">{REQUIRE_LABEL}</p>
          <p className="mt-0.5 text-sm text-slate-600">
            Each administrator signs in with a code from an authenticator app after the password; one without it is walked through setup first.
          </p>
          {settings.isError ? <p className="mt-1 text-sm text-rose-700">Could not load this setting. Reload the page to try again.</p> : null}
        </div>
        {required === undefined ? (
          settings.isError ? null : (
            <Skeleton className="h-6 w-11 rounded-full" />
          )
        ) : (
          <Switch checked={required} onChange={(next) => void change(next)} label={REQUIRE_LABEL} disabled={save.isPending} />
        )}
      </div>
    </section>
  );
}
