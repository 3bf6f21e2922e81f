/**
 * Hybrid logical clock ticks as one safe integer: wall milliseconds × 1000 +
 * a logical counter. A fresh tick is above both the wall clock and every tick
 * handed out before, so per-field last-writer-wins orders writes causally even
 * when clocks skew (Kulkarni et al., "Logical Physical Clocks", 2014).
 */
const LOGICAL = 1000;

export function nextTick(lastTick: number, nowMs: number): number {
  return Math.max(Math.floor(nowMs) * LOGICAL, lastTick + 1);
}

export function tickTime(tick: number): number {
  return Math.floor(tick / LOGICAL);
}
