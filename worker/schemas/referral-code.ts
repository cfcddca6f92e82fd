// The referral code's shape, shared by the Worker and the SPA. No zod here: the SPA's public layout
// keeps the code from ?ref= links, and it is part of every page's first load.

/** Letters and digits people can read aloud and type without mix-ups (no 0/O, 1/I/L). */
export const REFERRAL_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const REFERRAL_CODE_LENGTH = 8;
