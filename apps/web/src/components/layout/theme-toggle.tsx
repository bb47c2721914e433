import { Moon, Sun } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import { Tooltip } from '../ui/tooltip.tsx';
import { useSettings } from '../../stores/settings-store.ts';

/** Switches between the dark (default) and light themes; the choice lasts for the browser session. */
export function ThemeToggle() {
  const theme = useSettings((state) => state.theme);
  const toggleTheme = useSettings((state) => state.toggleTheme);
  const label = theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <Tooltip content={label}>
      <Button variant="ghost" size="icon" aria-label={label} onClick={toggleTheme}>
        {theme === 'dark' ? (
          <Sun aria-hidden="true" className="size-4" />
        ) : (
          <Moon aria-hidden="true" className="size-4" />
        )}
      </Button>
    </Tooltip>
  );
}
