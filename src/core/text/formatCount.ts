/**
 * "12,345" without Intl: `toLocaleString` costs microseconds a call, too much for a header on every read.
 */
export function formatCount(value: number): string {
  const digits = String(Math.trunc(Math.abs(value)));
  let out = '';
  for (let i = digits.length; i > 0; i -= 3) out = digits.slice(Math.max(0, i - 3), i) + (out ? `,${out}` : '');
  return value < 0 ? `-${out}` : out;
}
