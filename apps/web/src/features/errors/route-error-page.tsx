import { RotateCw } from 'lucide-react';
import { useRouteError } from 'react-router';
import { UNEXPECTED_APPLICATION_ERROR } from '@ris/domain';
import { Button } from '../../components/ui/button.tsx';
import { routeErrorMessage } from './route-error-message.ts';

/** The router's error element: 'Unexpected Application Error!' followed by the error's message. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (import.meta.env.DEV) console.error(error);
  return (
    <div
      role="alert"
      className="flex min-h-full flex-col items-center justify-center gap-4 bg-canvas px-4 py-16"
    >
      <title>Error · RIS</title>
      <div className="w-full max-w-lg rounded-lg border border-line bg-surface p-6">
        <h1 className="text-lg font-semibold text-fg">{UNEXPECTED_APPLICATION_ERROR}</h1>
        <p className="mt-2 rounded-md bg-danger-soft px-3 py-2 font-mono text-[13px] break-words text-danger">
          {routeErrorMessage(error)}
        </p>
        <div className="mt-5 flex gap-2">
          <Button variant="secondary" onClick={() => window.location.reload()}>
            <RotateCw aria-hidden="true" className="size-4" />
            Reload
          </Button>
          <Button asChild variant="ghost">
            <a href="/">Go to home</a>
          </Button>
        </div>
      </div>
    </div>
  );
}
