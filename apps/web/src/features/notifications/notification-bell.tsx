import * as Popover from '@radix-ui/react-popover';
import { notificationWorklistId, type TNotification } from '@ris/domain';
import { Bell, CheckCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useOpenItem } from '../tabs/open-tabs-bar.tsx';
import { relativeTime } from './relative-time.ts';
import { useNotifications, type TLiveMessages } from './use-notifications.ts';

/** The badge's text: the count, capped so the badge stays small. */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/** The tab title of the study a notification leads to: the patient part of its body, else its title. */
function tabTitle(notification: TNotification): string {
  const patient = notification.body?.split(' — ')[0]?.trim();
  return patient || notification.title;
}

function NotificationRow({
  notification,
  now,
  onChoose,
}: {
  notification: TNotification;
  now: Date;
  onChoose: (notification: TNotification) => void;
}) {
  const unread = !notification.is_read;
  return (
    <li>
      <button
        type="button"
        onClick={() => onChoose(notification)}
        data-notification-id={notification.id}
        data-read={notification.is_read ? 'true' : 'false'}
        className={cn(
          'flex w-full items-start gap-2.5 rounded-md px-2.5 py-2 text-left hover:bg-surface-hover',
          'focus-visible:outline-2 focus-visible:outline-focus',
        )}
      >
        <span
          aria-hidden="true"
          className={cn('mt-1.5 size-2 shrink-0 rounded-full', unread ? 'bg-accent' : 'bg-transparent')}
        />
        <span className="min-w-0 flex-1">
          <span className={cn('block text-[13px] text-fg', unread ? 'font-semibold' : 'font-normal')}>
            {notification.title}
            {unread ? <span className="sr-only"> (unread)</span> : null}
          </span>
          {notification.body ? (
            <span className="block truncate text-xs text-fg-muted" title={notification.body}>
              {notification.body}
            </span>
          ) : null}
          <time dateTime={notification.created_at} className="mt-0.5 block text-[11px] text-fg-subtle">
            {relativeTime(notification.created_at, now)}
          </time>
        </span>
      </button>
    </li>
  );
}

/**
 * The header's bell: the unread count, and a popover with the recent notifications. Choosing one
 * marks it read and opens the study it is about; "Mark all read" clears the count. New ones arrive
 * live over the realtime connection.
 */
export function NotificationBell({ userId, live }: { userId: string; live?: TLiveMessages }) {
  const [open, setOpen] = useState(false);
  const [now, setNow] = useState(() => new Date());
  const openItem = useOpenItem();
  const { list, isPending, isError, unreadCount, markRead } = useNotifications(userId, live);
  const items = list?.items ?? [];
  const label = unreadCount > 0 ? `Notifications, ${unreadCount} unread` : 'Notifications';

  const choose = (notification: TNotification): void => {
    if (!notification.is_read) markRead([notification.id]);
    const worklistId = notificationWorklistId(notification);
    if (worklistId) {
      setOpen(false);
      openItem({ id: worklistId, patient_name: tabTitle(notification) });
    }
  };

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        if (next) setNow(new Date());
        setOpen(next);
      }}
    >
      <Popover.Trigger asChild>
        <Button variant="ghost" size="icon" aria-label={label} className="relative">
          <Bell aria-hidden="true" className="size-4" />
          {unreadCount > 0 ? (
            <span
              aria-hidden="true"
              data-testid="notification-count"
              className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-danger px-1 text-[10px] leading-none font-semibold text-white tabular-nums"
            >
              {badgeText(unreadCount)}
            </span>
          ) : null}
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          aria-label="Notifications"
          className="z-50 flex max-h-[min(70vh,28rem)] w-[min(92vw,22rem)] flex-col rounded-lg border border-line-strong bg-surface-raised shadow-xl"
        >
          <div className="flex items-center justify-between gap-2 border-b border-line px-3 py-2">
            <h2 className="text-[13px] font-semibold text-fg">Notifications</h2>
            <Button variant="ghost" size="sm" disabled={unreadCount === 0} onClick={() => markRead('all')}>
              <CheckCheck aria-hidden="true" className="size-3.5" /> Mark all read
            </Button>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto p-1">
            {isPending ? (
              <p className="flex items-center gap-2 px-2.5 py-6 text-[13px] text-fg-muted">
                <Spinner /> Loading notifications…
              </p>
            ) : isError ? (
              <p className="px-2.5 py-6 text-center text-[13px] text-fg-muted">
                Notifications could not be loaded.
              </p>
            ) : items.length === 0 ? (
              <p className="px-2.5 py-6 text-center text-[13px] text-fg-muted">No notifications yet.</p>
            ) : (
              <ul aria-label="Recent notifications" className="flex flex-col">
                {items.map((notification) => (
                  <NotificationRow
                    key={notification.id}
                    notification={notification}
                    now={now}
                    onChoose={choose}
                  />
                ))}
              </ul>
            )}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
