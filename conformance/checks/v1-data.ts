// v1 data rules: deadlines, assignAt, attribute value types and required flags, events (seed 001).
import type { Check } from '../types.ts';

export const v1DataChecks: Check[] = [];
