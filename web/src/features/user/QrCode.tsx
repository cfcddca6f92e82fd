// The otpauth link as a QR code, drawn here from the link (no image service sees the secret). Its own
// chunk, loaded only on the two-factor setup screen: uqr is small, but no other screen needs it.
import { encode } from 'uqr';

/** One square per dark module, in one path: a QR code of a 32-character secret has about 800 of them. */
function modulesPath(data: boolean[][]): string {
  let path = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return path;
}

export default function QrCode({ value, label }: { value: string; label: string }) {
  // Medium error correction: a phone camera still reads it off a glossy or dim screen. The quiet zone
  // (two modules) stays white whatever the page's colours, as scanners need.
  const { size, data } = encode(value, { ecc: 'M', border: 2 });
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges" className="h-full w-full bg-white">
      <path d={modulesPath(data)} fill="#0f172a" />
    </svg>
  );
}
