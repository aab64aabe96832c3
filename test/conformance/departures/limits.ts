// Departures of the limits checks (conformance/checks/limits.ts).
import type { Departure } from './kit.ts';

export const LIMIT_DEPARTURES: Departure[] = [];
