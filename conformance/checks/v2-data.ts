// v2 data rules: what the read tools' answers hold and what the write tools' options do, judged by
// content where the seed names the content but not the fields (seed 000, Read tools, Write tools).
import type { Check } from '../types.ts';

export const v2DataChecks: Check[] = [];
