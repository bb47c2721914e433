import { Moon, Sun } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import { useSettings } from '../../stores/settings-store.ts';

/**
 * Switches between the dark (default) and light themes; a signed-in user's choice is saved to their
 * preferences and follows them to any browser (features/preferences).
 * Its hint is the native title: the toggle is on the sign-in page too, which loads no tooltip library.
 */
export function ThemeToggle() {
  const theme = useSettings((state) => state.theme);
  const toggleTheme = useSettings((state) => state.toggleTheme);
  const label = theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <Button variant="ghost" size="icon" aria-label={label} title={label} onClick={toggleTheme}>
      {theme === 'dark' ? (
        <Sun aria-hidden="true" className="size-4" />
      ) : (
        <Moon aria-hidden="true" className="size-4" />
      )}
    </Button>
  );
}
