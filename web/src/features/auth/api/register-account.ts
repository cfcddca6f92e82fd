// POST auth/register: a customer account (userType 2), with the referral code kept from a ?ref= link.
import type { RegisterInput } from '@schemas/auth';
import { publicClient, read } from '@/lib/api';

export const registerAccount = (input: RegisterInput) => read(publicClient.auth.register.$post({ json: input }));
