import { Construction, type LucideIcon } from 'lucide-react';
import { EmptyState } from '../ui/empty-state.tsx';
import { Page } from './page.tsx';

export interface UnavailableScreenProps {
  title: string;
  /** The sentence saying what is not available yet. */
  message: string;
  icon?: LucideIcon;
}

/** The honest stand-in for a screen whose feature is not built yet: no sample or fake data. */
export function UnavailableScreen({ title, message, icon = Construction }: UnavailableScreenProps) {
  return (
    <Page title={title}>
      <EmptyState icon={icon} title={message}>
        This screen will be filled in by a later release.
      </EmptyState>
    </Page>
  );
}
