// Client addresses as the Worker sees them (Cloudflare's cf-connecting-ip).

/** The address an account was made from, kept only when it names someone: loopback and private ones are every local visitor. */
export function publicAddress(ip: string | undefined): string | null {
  if (!ip || ip === 'unknown') return null;
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(ip);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    if (
      a === 10 ||
      a === 127 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254) ||
      (a === 100 && b >= 64 && b <= 127)
    )
      return null;
    return ip;
  }
  const v6 = ip.toLowerCase();
  if (v6 === '::1' || v6 === '::' || v6.startsWith('fe80:') || v6.startsWith('fc') || v6.startsWith('fd') || v6.startsWith('::ffff:127.')) return null;
  return v6;
}
