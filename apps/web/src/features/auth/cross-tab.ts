/** Serialises work across tabs (navigator.locks): one holder of a name at a time. */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** A message bus between the tabs of one origin (BroadcastChannel). */
export interface ChannelLike<M> {
  postMessage(message: M): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (message: unknown) => void): () => void;
  close(): void;
}

/**
 * A lock manager inside one JavaScript realm: callbacks for one name run one after the other. It is
 * the fallback where navigator.locks is missing (an insecure http:// origin other than localhost),
 * where it only serialises the refreshes of this tab.
 */
export function createLocalLocks(): LockManagerLike {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const run = previous.then(callback, callback);
      const tail = run.catch(() => undefined);
      tails.set(name, tail);
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name);
      });
      return run;
    },
  };
}

/** navigator.locks when the browser offers it (secure contexts), else the in-tab fallback. */
export function browserLocks(): LockManagerLike {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return createLocalLocks();
  return {
    async request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      let result: { value: T } | undefined;
      await locks.request(name, async () => {
        result = { value: await callback() };
      });
      if (!result) throw new Error(`lock ${name} was released without running`);
      return result.value;
    },
  };
}

/** A BroadcastChannel of that name, or a channel that goes nowhere where the platform has none. */
export function browserChannel<M>(name: string): ChannelLike<M> {
  if (typeof BroadcastChannel === 'undefined') {
    return { postMessage: () => undefined, subscribe: () => () => undefined, close: () => undefined };
  }
  const channel = new BroadcastChannel(name);
  return {
    postMessage: (message) => channel.postMessage(message),
    subscribe: (listener) => {
      const onMessage = (event: MessageEvent<unknown>): void => listener(event.data);
      channel.addEventListener('message', onMessage);
      return () => channel.removeEventListener('message', onMessage);
    },
    close: () => channel.close(),
  };
}
