import { encode } from 'uqr';

/**
 * A QR code as SVG elements built from the module matrix (no innerHTML, no data: URL), with
 * a quiet zone; `label` is its accessible name. The text stays available next to it.
 */
export function QrCode(props: { value: string; label: string }) {
  const { data, size } = encode(props.value, { ecc: 'M', border: 4 });
  const path = data
    .flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : '')))
    .join('');
  return (
    <svg
      class="qr"
      role="img"
      aria-label={props.label}
      viewBox={`0 0 ${size} ${size}`}
      width={Math.max(180, size * 4)}
      height={Math.max(180, size * 4)}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
