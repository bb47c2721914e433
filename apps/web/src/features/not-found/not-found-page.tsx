import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Brand } from '../../components/layout/brand.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PATHS } from '../../paths.ts';

/** The catch-all for unknown paths. */
export function NotFoundPage() {
  return (
    <div className="flex min-h-full flex-col items-center justify-center gap-6 bg-canvas px-4 py-16 text-center">
      <title>Page not found · RIS</title>
      <Brand />
      <div>
        <p className="font-mono text-sm font-medium text-accent">404</p>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight text-fg">Page not found</h1>
        <p className="mt-2 max-w-sm text-[13px] text-fg-muted">
          The page you asked for does not exist or has moved. Check the address, or go back to the start.
        </p>
      </div>
      <Button asChild variant="secondary" size="lg">
        <Link to={PATHS.home}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Go to home
        </Link>
      </Button>
    </div>
  );
}
