import { useEffect, useState } from 'react';

export const MINUTE_MS = 60_000;

/** The current time, moved on once a minute, so elapsed times ("5 min ago") stay true on screen. */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), MINUTE_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}
