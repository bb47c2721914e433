import {
  Building2,
  CircleUserRound,
  ClipboardList,
  FileSearch,
  FileText,
  House,
  LifeBuoy,
  ListChecks,
  TextCursorInput,
  type LucideIcon,
} from 'lucide-react';
import { PATHS } from '../../paths.ts';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Only an exact match marks the item current (Home would otherwise match every path). */
  end?: boolean;
}

/** The main navigation, in the order of the specification's route table. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Home', to: PATHS.home, icon: House, end: true },
  { label: 'Worklist', to: PATHS.worklist, icon: ListChecks },
  { label: 'Orders', to: PATHS.orders, icon: ClipboardList },
  { label: 'Report finder', to: PATHS.reportFinder, icon: FileSearch },
  { label: 'Templates', to: PATHS.templates, icon: FileText },
  { label: 'Macros', to: PATHS.macros, icon: TextCursorInput },
  { label: 'Organisation', to: PATHS.organisation, icon: Building2 },
  { label: 'Profile', to: PATHS.profile, icon: CircleUserRound },
  { label: 'Support', to: PATHS.support, icon: LifeBuoy },
];
