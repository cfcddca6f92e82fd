// POST admin/services/import: the CSV file in `user_file` (multipart, as the spec's uploads are),
// with the provider its rows' service ids belong to.
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

export type CsvImportResult = InferResponseType<typeof client.admin.services.import.$post, 200>;

export const importServicesCsv = (providerId: number, file: File) =>
  read(client.admin.services.import.$post({ form: { user_file: file, providerId: String(providerId) } }));
