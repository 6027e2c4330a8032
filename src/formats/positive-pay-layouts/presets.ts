// Every layout the service writes by name. `csv` and `fixed` keep their original names so
// existing requests, stored exports and scripts mean what they meant.
import { CHASE_ARP } from './chase-arp.ts';
import type { PositivePayLayout } from './layout.ts';
import { OURS_CSV } from './ours-csv.ts';

export const PRESETS: readonly PositivePayLayout[] = [OURS_CSV, CHASE_ARP];

export const PRESET_NAMES = PRESETS.map((p) => p.name);

export function presetNamed(name: string): PositivePayLayout | undefined {
  return PRESETS.find((p) => p.name === name);
}
