// GET admin/tickets/{id}: the thread with what it is about. Reading it marks it read for support.
import { useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { threadQuery } from '@/api/tickets';
import { client, read } from '@/lib/api';
import { adminTicketKeys } from './keys';

/** The Worker's ticket views carry either side's fields; support's thread always has the staff ones (who asked, who took it). */
export type AdminTicketDetail = Extract<InferResponseType<(typeof client.admin.tickets)[':id']['$get'], 200>['data'], { user: unknown }>;

/** An answer of support's ticket calls, its thread read as support reads it. */
export const asStaffView = async <A extends { data: unknown }>(answer: Promise<A>) => (await answer) as Omit<A, 'data'> & { data: AdminTicketDetail };

export const getAdminTicket = async (id: number, signal?: AbortSignal) =>
  (await asStaffView(read(client.admin.tickets[':id'].$get({ param: { id: String(id) } }, { init: { signal } })))).data;

export const adminTicketQueryOptions = (id: number) => threadQuery(adminTicketKeys.detail(id), (signal) => getAdminTicket(id, signal));

export const useAdminTicket = (id: number) => useQuery(adminTicketQueryOptions(id));
