// The deployment's limits, provoked only with --probe-limits (seed 000, Limits; Errors 429).
import type { Check } from '../types.ts';

export const limitChecks: Check[] = [];
