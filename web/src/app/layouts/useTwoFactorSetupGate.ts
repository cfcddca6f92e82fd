import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '@/lib/authContext';
import { apiErrorCode } from '@/lib/errorCode';

export const TWO_FACTOR_SETUP_PATH = '/admin/two-factor';

/**
 * Whether the site holds this administrator at the two-factor setup screen: the sign-in answer and the
 * profile say so (`twoFactorSetupRequired`), and an admin call refused with 'two_factor_setup_required'
 * (the setting turned on while signed in) reads the profile again and goes there.
 */
export function useTwoFactorSetupGate(): boolean {
  const { user, reloadProfile } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    const onError = (error: unknown) => {
      if (apiErrorCode(error) !== 'two_factor_setup_required') return;
      void reloadProfile();
      navigate(TWO_FACTOR_SETUP_PATH, { replace: true });
    };
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') onError(event.action.error);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [queryClient, navigate, reloadProfile]);
  return user?.twoFactorSetupRequired === true;
}
