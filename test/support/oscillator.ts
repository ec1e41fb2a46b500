/** x(t) for x'' = -k x - d x' from x0, v0: the textbook closed forms, one per regime, in float64. */
export function dampedOscillator(k: number, d: number, x0: number, v0: number, t: number): number {
  const half = d / 2;
  const s = k - half * half;
  if (s > 0) {
    const g = Math.sqrt(s);
    return Math.exp(-half * t) * (x0 * Math.cos(g * t) + ((v0 + half * x0) / g) * Math.sin(g * t));
  }
  if (s === 0) return Math.exp(-half * t) * (x0 + (v0 + half * x0) * t);
  const b = Math.sqrt(-s);
  const r1 = -half + b;
  const r2 = -half - b;
  // x = c1 e^(r1 t) + c2 e^(r2 t), c1 + c2 = x0, r1 c1 + r2 c2 = v0.
  const c1 = (v0 - r2 * x0) / (r1 - r2);
  return c1 * Math.exp(r1 * t) + (x0 - c1) * Math.exp(r2 * t);
}
