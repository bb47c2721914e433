import * as Menu from '@radix-ui/react-dropdown-menu';
import type { TManagedUser } from '@ris/domain';
import { EllipsisVertical, KeyRound, Mail, Pencil, UserCheck, UserX } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { menuContentClassName, menuItemClassName } from '../worklist/row-menu.tsx';

export type TUserRowAction = 'edit' | 'status' | 'reset-password' | 'resend-invitation';

/** Whether the user's abilities allow anything the menu offers. */
export function hasUserActions(user: TManagedUser): boolean {
  const { abilities } = user;
  return abilities.edit || abilities.disable || abilities.reset_password || abilities.resend_invitation;
}

/** The per-row menu of the users table: only what the user's abilities allow. */
export function UserRowMenu({
  user,
  onAction,
}: {
  user: TManagedUser;
  onAction: (action: TUserRowAction, user: TManagedUser) => void;
}) {
  const { abilities } = user;
  if (!hasUserActions(user)) return null;
  const active = user.status === 'ACTIVE';
  return (
    <Menu.Root>
      <Menu.Trigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          aria-label={`Actions for ${user.display_name}`}
        >
          <EllipsisVertical aria-hidden="true" className="size-4" />
        </Button>
      </Menu.Trigger>
      <Menu.Portal>
        <Menu.Content align="end" sideOffset={4} className={menuContentClassName}>
          {abilities.edit ? (
            <Menu.Item className={menuItemClassName} onSelect={() => onAction('edit', user)}>
              <Pencil aria-hidden="true" className="size-4 text-fg-subtle" /> Edit
            </Menu.Item>
          ) : null}
          {abilities.resend_invitation ? (
            <Menu.Item className={menuItemClassName} onSelect={() => onAction('resend-invitation', user)}>
              <Mail aria-hidden="true" className="size-4 text-fg-subtle" /> Resend invitation
            </Menu.Item>
          ) : null}
          {abilities.reset_password ? (
            <Menu.Item className={menuItemClassName} onSelect={() => onAction('reset-password', user)}>
              <KeyRound aria-hidden="true" className="size-4 text-fg-subtle" /> Reset password…
            </Menu.Item>
          ) : null}
          {abilities.disable ? (
            <>
              <Menu.Separator className="my-1 h-px bg-line" />
              <Menu.Item
                className={cn(menuItemClassName, active && 'text-danger')}
                onSelect={() => onAction('status', user)}
              >
                {active ? (
                  <UserX aria-hidden="true" className="size-4" />
                ) : (
                  <UserCheck aria-hidden="true" className="size-4 text-fg-subtle" />
                )}
                {active ? 'Disable…' : 'Enable…'}
              </Menu.Item>
            </>
          ) : null}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}
