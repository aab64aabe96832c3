// Departures of the v2 data checks (conformance/checks/v2-data.ts).
import type { Departure } from './kit.ts';

export const V2_DATA_DEPARTURES: Departure[] = [];
