// What a ticket's page does on both sides besides drawing the ticket: it takes the ticket number from
// the path, has the unread badge asked again after reading, and keeps the cache in step with changes.

import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useEffect } from 'react';
import { useParams } from 'react-router-dom';
import NotFound from '@/components/NotFound';
import { handleApiError } from '@/lib/api';
import { toast } from '@/lib/toast';

/** A ticket's route: `Page` for the :id of the path, or the 404 when that is not a ticket number. */
export function ticketRoute(Page: ComponentType<{ id: number }>) {
  return function TicketRoute() {
    const id = Number(useParams().id);
    return Number.isSafeInteger(id) && id > 0 ? <Page id={id} /> : <NotFound />;
  };
}

/** Reading a thread marks it read on the server: each time it loads (`loadedAt`), the unread badge's count is asked again. */
export function useUnreadRecount(loadedAt: number, unreadKey: QueryKey) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (loadedAt) void queryClient.invalidateQueries({ queryKey: unreadKey });
  }, [loadedAt, queryClient, unreadKey]);
}

/** A change to a ticket (a reply, assigning, closing) answers with the whole ticket: it replaces the cached one, and `refresh` (the lists) is read again. */
export function useTicketChange<V, T>(
  change: (variables: V) => Promise<{ message?: string; data: T }>,
  { detailKey, refresh, done }: { detailKey: QueryKey; refresh: QueryKey; done: string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (res) => {
      toast.success(res.message || done);
      queryClient.setQueryData(detailKey, res.data);
      void queryClient.invalidateQueries({ queryKey: refresh });
    },
    onError: (error) => handleApiError(error),
  });
}
