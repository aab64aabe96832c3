// Departures of the v1-data checks (conformance/checks/v1-data.ts).
import type { Departure } from './kit.ts';

export const V1_DATA_DEPARTURES: Departure[] = [];
