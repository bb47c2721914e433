import { Link, type LinkProps } from 'react-router';
import { cn } from '../../components/ui/cn.ts';

/** An in-app text link in the accent colour. */
export function TextLink({ className, ...props }: LinkProps) {
  return (
    <Link
      className={cn(
        'font-medium text-accent underline-offset-4 hover:text-accent-hover hover:underline',
        className,
      )}
      {...props}
    />
  );
}
