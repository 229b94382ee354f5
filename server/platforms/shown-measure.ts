/**
 * A measured value (seconds, fps, MB) shown next to the limit it broke. Plain rounding can land on the limit
 * itself ("from 3 to 900 s; this video lasts 3 s" for 2.96 s), so the value is rounded away from the limit it
 * broke: down when it is below `min`, up when it is above `max`, and to the nearest otherwise.
 */
export function shownMeasure(value: number, limits: { min?: number; max?: number }, digits = 2): number {
  if (!Number.isFinite(value)) return 0;
  const scale = 10 ** digits;
  // Scaled values such as 2.96 * 100 = 296.00000000000006 must not step to the next unit.
  const scaled = Number((value * scale).toPrecision(12));
  if (limits.min !== undefined && value < limits.min) return Math.floor(scaled) / scale;
  if (limits.max !== undefined && value > limits.max) return Math.ceil(scaled) / scale;
  return Math.round(scaled) / scale;
}
