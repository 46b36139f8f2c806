// Medians and 90th percentiles of timing samples, for the benchmarks that spawn processes.
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.round(0.9 * (xs.length - 1)))];
