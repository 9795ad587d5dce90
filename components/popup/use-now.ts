import { useEffect, useState } from 'preact/hooks';

/** Re-renders every `ms` so "2 min ago" keeps true while the popup stays open. */
export function useNow(ms: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(id);
  }, [ms]);
  return now;
}
